/**
 * p-limit: the pool most code reaches for, `Promise.all` over `limit(fn)`, results in input
 * order. It has no deadline of its own, so it runs without one (the deadline scenario says so).
 */
import pLimit from "p-limit";

/** @type {import("../lib/system.mjs").System} */
export const system = {
  name: "p-limit",
  kind: "batch",
  limitsConcurrency: true,
  perToolDeadline: false,
  streams: false,
  note: "p-limit + Promise.all; no validation, no encoding, no deadline",
  async prepare({ handler, concurrency, keep }) {
    const limit = pLimit(concurrency);
    const one = (call) => handler(call.arguments);
    return {
      run: async (calls) => {
        const results = await Promise.all(calls.map((call) => limit(one, call)));
        keep?.(results);
        return results.length;
      },
    };
  },
};
