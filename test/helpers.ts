import { z } from "zod";
import type { HandlerContext, ToolCall } from "../src/index.js";

/** A context for calling an executor directly, outside a runner. */
export function contextFor(call: ToolCall): HandlerContext {
  return {
    context: {},
    sessionId: undefined,
    requestId: undefined,
    toolCall: call,
    engine: undefined,
    signal: new AbortController().signal,
  };
}

/** A call to `name` with `args`, numbered by `id`. */
export function call(id: string, name: string, args: Record<string, unknown> = {}): ToolCall {
  return { id, name, arguments: args };
}

export const anyArgs = z.object({}).loose();

/** A promise with its resolve/reject in hand, for handlers the test settles itself. */
export function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (e: unknown) => void } {
  let resolve!: (value: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Let pending promise callbacks run. */
export async function flushMicrotasks(rounds = 10): Promise<void> {
  for (let i = 0; i < rounds; i++) await Promise.resolve();
}

import { firstValueFrom, toArray } from "rxjs";
import { streamToolCalls, type RunOptions, type Tool, type ToolEvent } from "../src/index.js";

/** Every event of a batch, in emission order. */
export function eventsOf(calls: readonly ToolCall[], tools: readonly Tool[], options?: RunOptions): Promise<ToolEvent[]> {
  return firstValueFrom(streamToolCalls(calls, tools, options).pipe(toArray()));
}
