/**
 * p-limit: the pool most code reaches for, `Promise.all` over `limit(fn)`. It has no deadline
 * of its own, so the deadline scenario races each call against a timer, as a user would.
 */
import pLimit from "p-limit";

/** @type {import("../lib/system.mjs").System} */
export const system = {
  name: "p-limit",
  limitsConcurrency: true,
  perToolDeadline: false,
  streams: false,
  note: undefined,
  deadlineNote: "a hand-written Promise.race against setTimeout",
  async prepare({ handler, concurrency, deadlineMs, onSettled }) {
    const limit = pLimit(concurrency);
    const one =
      deadlineMs === undefined
        ? (call) => handler(call.arguments)
        : (call) => {
            let timer;
            const deadline = new Promise((resolve) => {
              timer = setTimeout(resolve, deadlineMs, "timeout");
            });
            return Promise.race([handler(call.arguments), deadline]).then((value) => {
              clearTimeout(timer);
              onSettled?.(call.arguments.i);
              return value;
            });
          };
    return {
      run: async (calls) => (await Promise.all(calls.map((call) => limit(one, call)))).length,
    };
  },
};
