/**
 * The floor: bare RxJS, what a tool runner costs with nothing but `mergeMap` doing the work.
 * No validation, no encoding, no events, no deadline unless the scenario asks for one, which
 * it gets from RxJS's own `timeout` operator. Every other system is measured against this.
 */
import { catchError, count, from, lastValueFrom, mergeMap, of, tap, timeout, toArray } from "rxjs";

/** @type {import("../lib/system.mjs").System} */
export const system = {
  name: "floor",
  limitsConcurrency: true,
  perToolDeadline: true,
  streams: true,
  note: undefined,
  deadlineNote: "RxJS `timeout` on each call",
  async prepare({ handler, concurrency, deadlineMs, onSettled, collect = true }) {
    const input = (call) => {
      const value = handler(call.arguments);
      return typeof value?.then === "function" ? value : of(value);
    };
    const project =
      deadlineMs === undefined
        ? input
        : (call) =>
            from(input(call)).pipe(
              timeout({ first: deadlineMs }),
              catchError((e) => of(e)),
              tap(() => onSettled?.(call.arguments.i)),
            );
    return {
      // `collect: false` (scaling) consumes the results without holding them.
      run: collect
        ? async (calls) => (await lastValueFrom(from(calls).pipe(mergeMap(project, concurrency), toArray()))).length
        : (calls) => lastValueFrom(from(calls).pipe(mergeMap(project, concurrency), count())),
    };
  },
};
