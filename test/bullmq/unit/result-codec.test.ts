import { describe, expect, it } from "vitest";
import { error, ok, ToolError, type HandlerResult } from "../../../src/index.js";
import { decodeJobResult, encodeJobResult } from "../../../src/bullmq/result-codec.js";

// No Redis needed: the job's result codec alone.
describe("encodeJobResult", () => {
  describe("when the result cannot leave the worker", () => {
    it("answers invalid_return as a worker thread does, saying what could not cross in metadata.crossing", () => {
      const cycle: Record<string, unknown> = {};
      cycle.self = cycle;
      for (const [result, problem] of [
        [ok({ n: 10n }), "`n` is a bigint, which JSON cannot hold"],
        [ok(cycle), "`self` refers back to an enclosing object (a cycle)"],
      ] as [HandlerResult, string][]) {
        const back = decodeJobResult(JSON.parse(JSON.stringify(encodeJobResult(result, "t", "c1"))));
        expect(back).toEqual(error(expect.any(ToolError)));
        const reason = (back as { reason: ToolError }).reason;
        expect(reason).toMatchObject({ reason: "invalid_return", toolName: "t", toolCallId: "c1", metadata: { crossing: problem } });
        expect(reason.message).toBe(`tool error (t): invalid_return: the result cannot leave the worker: ${problem}`);
      }
    });
  });

  it("carries a result that can cross as the worker's own codec writes it, ToolError and parts included", () => {
    const tool = new ToolError("timeout", { toolName: "t", toolCallId: "c1", message: "slow", metadata: { ms: 5 } });
    for (const result of [
      ok({ a: [1, "x", null] }),
      ok("text", { parts: [{ type: "text", text: "hi" }] }),
      error(tool),
      error(new RangeError("r")),
    ] as HandlerResult[]) {
      const wire = encodeJobResult(result, "t", "c1");
      expect(wire).toEqual(JSON.parse(JSON.stringify(wire)));
      const back = decodeJobResult(JSON.parse(JSON.stringify(wire)));
      expect(back).toEqual(result);
    }
    const back = decodeJobResult(encodeJobResult(error(tool), "other", "c9")) as { reason: ToolError };
    expect(back.reason).toBeInstanceOf(ToolError);
    expect(back.reason).toMatchObject({ reason: "timeout", toolName: "t", toolCallId: "c1", message: "slow", metadata: { ms: 5 } });
  });
});

describe("decodeJobResult", () => {
  it("throws a TypeError saying why when the job's result is not one a worker writes", () => {
    expect(() => decodeJobResult(null)).toThrow(new TypeError("the wire result is not an object"));
    expect(() => decodeJobResult({ type: "nope" })).toThrow(new TypeError("the wire result is not one of the four result shapes"));
    expect(() => decodeJobResult({ type: "halt", reason: 1 })).toThrow(TypeError);
  });
});
