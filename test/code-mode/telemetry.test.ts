import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ok } from "../../src/index.js";
import { codeMode } from "../../src/code-mode/index.js";
import { telemetry } from "../../src/otel/index.js";
import { otelHarness, parentId } from "../support/otel-harness.js";

describe("codeMode under telemetry", () => {
  const otel = otelHarness();
  const traced = telemetry({ tracerProvider: otel.tracerProvider, meterProvider: otel.meterProvider });
  const echo = defineTool({ name: "echo", description: "", schema: z.object({ i: z.number() }), handler: ({ i }) => ok(i) });
  const code = codeMode({ tools: [echo], stream: traced.streamToolCalls });
  afterAll(() => code.close());

  it("nests each nested call's span under the code-mode call's span", async () => {
    const script = "return (await tools.echo({ i: 1 })) + (await tools.echo({ i: 2 }));";
    const result = await otel.withParent(() => traced.runToolCalls([{ id: "s1", name: "run_script", arguments: { script } }], [code.tool]));
    expect(result.messages[0]?.content).toBe("3");
    const call = otel.span("execute_tool run_script");
    const nested = otel.spans().filter((s) => s.name === "execute_tool echo");
    expect(nested.map((s) => [s.attributes["gen_ai.tool.call.id"], parentId(s) === call.spanContext().spanId])).toEqual([
      ["s1.0", true],
      ["s1.1", true],
    ]);
  });
});
