import { describe, expectTypeOf, it } from "vitest";
import type { executeToolCalls, runAgent, runToolCalls, streamAgent, streamToolCalls } from "../../src/index.js";
import { telemetry, type Telemetry, type TelemetryOptions } from "../../src/otel/index.js";

describe("telemetry()", () => {
  it("returns the runners with the core's own signatures, so swapping them in changes no types", () => {
    const traced = telemetry();
    expectTypeOf(traced).toEqualTypeOf<Telemetry>();
    expectTypeOf(traced.streamToolCalls).toEqualTypeOf<typeof streamToolCalls>();
    expectTypeOf(traced.runToolCalls).toEqualTypeOf<typeof runToolCalls>();
    expectTypeOf(traced.executeToolCalls).toEqualTypeOf<typeof executeToolCalls>();
    expectTypeOf(traced.streamAgent).toEqualTypeOf<typeof streamAgent>();
    expectTypeOf(traced.runAgent).toEqualTypeOf<typeof runAgent>();
  });

  it("takes recordContent as a boolean or { maxLength }", () => {
    expectTypeOf<{ recordContent: true }>().toExtend<TelemetryOptions>();
    expectTypeOf<{ recordContent: { maxLength: 100 } }>().toExtend<TelemetryOptions>();
    expectTypeOf<{ recordContent: "yes" }>().not.toExtend<TelemetryOptions>();
  });
});
