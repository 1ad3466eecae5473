import { ProxyTracerProvider, trace } from "@opentelemetry/api";
import type { Histogram } from "@opentelemetry/sdk-metrics";
import { AlwaysOffSampler, AlwaysOnSampler, BasicTracerProvider, ParentBasedSampler } from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, error, ok, runToolCalls as coreRunToolCalls } from "../../src/index.js";
import { telemetry } from "../../src/otel/index.js";
import { call } from "../support/helpers.js";
import { otelHarness } from "../support/otel-harness.js";
import { must } from "../support/must.js";
import { setup, weather } from "./otel-fixtures.js";

describe("telemetry()", () => {
  describe("metrics", () => {
    it("records gen_ai.execute_tool.duration by tool and outcome, and no call left in flight", async () => {
      const { otel, events } = setup();
      const nope = defineTool({ name: "nope", description: "", schema: z.object({}), handler: () => error("down") });
      await events([call("c1", "weather", { city: "Oslo" }), call("c2", "nope"), call("c3", "weather", { city: "Rome" })], [weather, nope]);
      const points = await otel.points("gen_ai.execute_tool.duration");
      expect(points.map((p) => [p.attributes, (p.value as Histogram).count])).toEqual([
        [{ "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "weather", "toolrx.call.outcome": "ok" }, 2],
        [{ "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "nope", "toolrx.call.outcome": "error", "error.type": "_OTHER" }, 1],
      ]);
      expect((await otel.points("toolrx.execute_tool.active")).map((p) => p.value)).toEqual([0, 0]);
    });
  });

  describe("bad input", () => {
    it("throws a TypeError naming the option", () => {
      expect(() => telemetry({ recordContent: "yes" as never })).toThrow(new TypeError('Expected `recordContent` to be a boolean or { maxLength }, got "yes"'));
      expect(() => telemetry({ recordContent: { maxLength: 0 } })).toThrow(/`recordContent.maxLength`/);
      expect(() => telemetry({ tracerProvider: {} as never })).toThrow(/`tracerProvider`/);
      expect(() => telemetry({ agentName: 3 as never })).toThrow(/`agentName`/);
    });

    it("keeps the core's call-time checks", () => {
      const { traced } = setup();
      expect(() => traced.streamToolCalls([], [], { maxConcurrency: 0 })).toThrow(/`maxConcurrency`/);
      return expect(traced.runToolCalls("nope" as never, [])).rejects.toThrow(/`calls`/);
    });
  });

  it("runs calls unchanged with no SDK set up (the API's no-ops)", async () => {
    const traced = telemetry({ tracerProvider: new ProxyTracerProvider() });
    let active: unknown = "unset";
    const probe = defineTool({
      name: "probe",
      description: "",
      schema: z.object({}),
      handler: () => {
        active = trace.getActiveSpan();
        return ok("fine");
      },
    });
    const calls = [call("c1", "probe"), call("c2", "weather", { city: 1 })];
    expect(await traced.runToolCalls(calls, [probe, weather])).toEqual(await coreRunToolCalls(calls, [probe, weather]));
    expect(active).toBeUndefined();
  });

  it("records no span but still metrics when the trace is sampled out, and the handler's spans follow", async () => {
    const otel = otelHarness();
    const sampledOut = new BasicTracerProvider({ sampler: new ParentBasedSampler({ root: new AlwaysOffSampler() }), spanProcessors: [] });
    const traced = telemetry({ tracerProvider: sampledOut, meterProvider: otel.meterProvider });
    // The handler's tracer would record a root span: only the sampled-out parent it inherits stops it.
    const handlerTracer = new BasicTracerProvider({ sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }) }).getTracer("http");
    let handlerSpanRecorded: boolean | undefined;
    const probe = defineTool({
      name: "probe",
      description: "",
      schema: z.object({}),
      handler: async () => {
        await Promise.resolve();
        return handlerTracer.startActiveSpan("GET", (span) => {
          handlerSpanRecorded = span.isRecording();
          span.end();
          return ok(1);
        });
      },
    });
    await traced.runToolCalls([call("c1", "probe")], [probe]);
    expect(handlerSpanRecorded).toBe(false);
    const [point] = await otel.points("gen_ai.execute_tool.duration");
    expect((must(point).value as Histogram).count).toBe(1);
  });

  it("does not touch the global providers when given its own", async () => {
    const { otel, events } = setup();
    await events([call("c1", "weather", { city: "Oslo" })], [weather]);
    expect(otel.spans()).toHaveLength(1);
    expect(trace.getActiveSpan()).toBeUndefined();
  });
});
