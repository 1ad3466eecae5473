/**
 * The floors: bare RxJS, what a tool runner costs with nothing but `mergeMap` doing the work
 * (no validation, no encoding, no events), and the same with RxJS's own `timeout` on each call,
 * which is how the design card says the per-tool deadline is built.
 */
import { count, from, lastValueFrom, mergeMap, of, tap, timeout, toArray } from "rxjs";

const TIMED_OUT = { type: "error", reason: "timeout" };

function prepareWith(project) {
  return ({ handler, concurrency, deadlineMs, onSettled, collect = true, keep }) => {
    const input = (call) => {
      const value = handler(call.arguments);
      return typeof value?.then === "function" ? from(value) : of(value);
    };
    const one = project(input, deadlineMs, onSettled);
    return {
      // `collect: false` (scaling) consumes the results without holding them.
      run: collect
        ? async (calls) => {
            const results = await lastValueFrom(from(calls).pipe(mergeMap(one, concurrency), toArray()));
            keep?.(results);
            return results.length;
          }
        : (calls) => lastValueFrom(from(calls).pipe(mergeMap(one, concurrency), count())),
    };
  };
}

/** @type {import("../lib/system.mjs").System} */
export const system = {
  name: "floor",
  kind: "stream",
  limitsConcurrency: true,
  perToolDeadline: false,
  streams: true,
  note: "bare RxJS: from(calls).pipe(mergeMap(handler, 16)), no deadline",
  prepare: async (setup) => prepareWith((input) => input)(setup),
};

/** @type {import("../lib/system.mjs").System} */
export const withTimeout = {
  name: "floor-timeout",
  kind: "stream",
  limitsConcurrency: true,
  perToolDeadline: true,
  streams: true,
  note: "bare RxJS with RxJS `timeout` on each call (the design card's shape)",
  deadlineNote: "RxJS `timeout` on each call",
  prepare: async (setup) =>
    prepareWith((input, deadlineMs = 30_000, onSettled) => {
      const limited = (call) => input(call).pipe(timeout({ first: deadlineMs, with: () => of(TIMED_OUT) }));
      return onSettled === undefined ? limited : (call) => limited(call).pipe(tap(() => onSettled(call.arguments.i)));
    })(setup),
};
