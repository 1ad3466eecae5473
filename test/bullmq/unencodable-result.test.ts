import { describe, expect, it } from "vitest";
import { error, ok, ToolError, type HandlerResult } from "../../src/index.js";
import { decodeJobResult, encodeJobResult } from "../../src/bullmq/result-codec.js";

// No Redis needed: the job's result codec alone.
describe("encodeJobResult", () => {
  describe("when the result cannot leave the worker", () => {
    it("answers invalid_return as a worker thread does, saying what could not cross in metadata.crossing", () => {
      const cycle: Record<string, unknown> = {};
      cycle.self = cycle;
      for (const [result, problem] of [
        [ok({ n: 10n }), "`n` is a bigint, which JSON cannot hold"],
        [ok(cycle), "`self` refers back to an enclosing object (a cycle)"],
        [ok(undefined), "the value is undefined, which JSON cannot hold"],
      ] as [HandlerResult, string][]) {
        const back = decodeJobResult(JSON.parse(JSON.stringify(encodeJobResult(result, "t", "c1"))));
        expect(back).toEqual(error(expect.any(ToolError)));
        const reason = (back as { reason: ToolError }).reason;
        expect(reason).toMatchObject({ reason: "invalid_return", toolName: "t", toolCallId: "c1", metadata: { crossing: problem } });
        expect(reason.message).toBe(`tool error (t): invalid_return: the result cannot leave the worker: ${problem}`);
      }
    });
  });
});
