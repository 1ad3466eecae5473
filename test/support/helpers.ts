import { z } from "zod";
import { defineTool, type HandlerResult, type ToolCall } from "../../src/index.js";
import type { HandlerContext } from "../../src/tool/handler-context.js";

/** A context for calling an executor directly, outside a runner. */
export function contextFor(call: ToolCall): HandlerContext {
  return {
    context: {},
    sessionId: undefined,
    requestId: undefined,
    toolCall: call,
    engine: undefined,
    signal: new AbortController().signal,
    progress: () => {},
    log: () => {},
    ...noClientRequests,
  };
}

/** `ctx.askUser` and `ctx.sample` of a context no client stands behind: both reject. */
export const noClientRequests: Pick<HandlerContext, "askUser" | "sample"> = {
  askUser: () => Promise.reject(new Error("no client in this test")),
  sample: () => Promise.reject(new Error("no client in this test")),
};

/** A call to `name` with `args`, numbered by `id`. */
export function call(id: string, name: string, args: Record<string, unknown> = {}): ToolCall {
  return { id, name, arguments: args };
}

export const anyArgs = z.object({}).loose();

/** A tool named "hang" whose handler never settles; each call's `ctx.signal` goes to `signals`, to see it aborted. */
export function hangingTool(signals: AbortSignal[]) {
  return defineTool({
    name: "hang",
    description: "",
    schema: anyArgs,
    handler: (_args, ctx: HandlerContext) => {
      signals.push(ctx.signal);
      return new Promise<HandlerResult>(() => {});
    },
  });
}

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
import { streamToolCalls, type Tool, type ToolEvent } from "../../src/index.js";
import type { RunOptions } from "../../src/run/options/run-options.js";

/** Every event of a batch, in emission order. */
export function eventsOf(calls: readonly ToolCall[], tools: readonly Tool[], options?: RunOptions): Promise<ToolEvent[]> {
  return firstValueFrom(streamToolCalls(calls, tools, options).pipe(toArray()));
}

import type { SchedulerAction, SchedulerLike, Subscription } from "rxjs";

/** A scheduler that counts timers still pending: scheduled, neither run nor cancelled. */
export function countingScheduler(inner: SchedulerLike): SchedulerLike & { readonly live: number; readonly scheduled: number } {
  let live = 0;
  let scheduled = 0;
  return {
    now: () => inner.now(),
    schedule<T>(work: (this: SchedulerAction<T>, state: T) => void, delay?: number, state?: T): Subscription {
      live++;
      scheduled++;
      let pending = true;
      const settle = () => {
        if (pending) {
          pending = false;
          live--;
        }
      };
      const subscription = inner.schedule<T>(
        function (this: SchedulerAction<T>, s?: T) {
          settle();
          work.call(this, s as T);
        },
        delay,
        state,
      );
      subscription.add(settle);
      return subscription;
    },
    get live() {
      return live;
    },
    get scheduled() {
      return scheduled;
    },
  };
}

/** An AbortController whose signal counts the listeners added to it and still attached. */
export function countingController(): { controller: AbortController; readonly listeners: number } {
  const controller = new AbortController();
  const { signal } = controller;
  let listeners = 0;
  const add = signal.addEventListener.bind(signal);
  const remove = signal.removeEventListener.bind(signal);
  signal.addEventListener = ((type: string, listener: EventListener, options?: AddEventListenerOptions) => {
    listeners++;
    add(type, listener, options);
  }) as typeof signal.addEventListener;
  signal.removeEventListener = ((type: string, listener: EventListener, options?: EventListenerOptions) => {
    listeners--;
    remove(type, listener, options);
  }) as typeof signal.removeEventListener;
  return {
    controller,
    get listeners() {
      return listeners;
    },
  };
}
