import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { snapshotCalls } from "../../../src/run/checks/index.js";

/** The first pair of calls sharing an id, by the later call's index, found the slow, obvious way. */
function firstDuplicate(ids: readonly string[]): [number, number] | undefined {
  for (let i = 1; i < ids.length; i++) {
    const j = ids.indexOf(ids[i] as string);
    if (j < i) return [j, i];
  }
  return undefined;
}

describe("snapshotCalls", () => {
  describe("when two calls share an id, in a batch of any size (pairwise up to 16 calls, a Set above)", () => {
    it("refuses the batch naming the first call with the id and the first call repeating it, and passes every batch of unique ids", () => {
      // Few distinct ids over up to 60 calls: most batches above 16 calls repeat one, some do not.
      const ids = fc.array(fc.oneof(fc.stringMatching(/^[a-c]{1,2}$/), fc.uuid()), { maxLength: 60, size: "max" });
      fc.assert(
        fc.property(ids, (batchIds) => {
          const calls = batchIds.map((id) => ({ id, name: "t", arguments: {} }));
          const pair = firstDuplicate(batchIds);
          if (pair === undefined) {
            expect(snapshotCalls(calls)).toEqual(calls);
            return;
          }
          const [j, i] = pair;
          expect(() => snapshotCalls(calls)).toThrow(
            new TypeError(`Expected tool call ids to be unique, got "${batchIds[i]}" at index ${j} and ${i}; providers reject two answers to one id`),
          );
        }),
      );
    });
  });
});
