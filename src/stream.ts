import { Observable, type Subscribable, type Subscriber } from "rxjs";
import type { ToolEvent } from "./events.js";
import { resolveOptions, type RunEnv, type RunOptions } from "./options.js";
import { CallRun, type CallSink } from "./run-one.js";
import type { Tool } from "./tool.js";
import { assertToolCall, type CallIdentity, type ToolCall } from "./tool-call.js";
import { describe } from "./safe.js";
import type { ToolError } from "./tool-error.js";
import { snapshotCalls } from "./snapshot-calls.js";
import { toolNotFound, unknownTool } from "./unknown-tool.js";
import { toolSource, type ToolSource } from "./tool-source.js";
import type { ToolResolver } from "./resolver.js";

/**
 * Run tool calls and tell what happens as it happens. Cold and lazy: nothing runs until you
 * subscribe; unsubscribing aborts every running handler's `ctx.signal` and leaves no timer or
 * listener behind.
 *
 * Given an array, the batch is checked first: an unknown tool name errors the stream with an
 * `EngineError` before any call runs. Given an Observable, calls start as they arrive, `index` is
 * arrival order, and an unknown name fails that call alone (`not_found`).
 *
 * @throws {TypeError} at call time, for invalid options or malformed calls.
 *
 * @example
 * streamToolCalls(calls, [weather], { maxConcurrency: 4, toolTimeout: 5_000 })
 *   .subscribe((event) => console.log(event.index, event.type));
 * // 0 tool_execution_started
 * // 0 tool_execution_completed
 * // 0 tool_result_encoded
 */
export function streamToolCalls(
  calls: readonly ToolCall[] | Subscribable<ToolCall>,
  tools: readonly Tool[] | ToolResolver,
  options?: RunOptions,
): Observable<ToolEvent> {
  const streamed = !Array.isArray(calls);
  if (streamed && typeof (calls as { subscribe?: unknown } | null)?.subscribe !== "function") {
    throw new TypeError(`Expected \`calls\` to be an array or an Observable of tool calls, got ${describe(calls)}`);
  }
  const env = resolveOptions(options, streamed ? undefined : calls.length);
  const source = toolSource(tools, env);
  if (streamed) return streamOf(calls as Subscribable<ToolCall>, source, env);
  return batchOf(snapshotCalls(calls as readonly unknown[]), source, env);
}

function batchOf(calls: readonly ToolCall[], source: ToolSource, env: RunEnv): Observable<ToolEvent> {
  return new Observable<ToolEvent>((subscriber) => {
    if (calls.length === 0) {
      subscriber.complete();
      return;
    }
    if (env.onUnknownTool === "fail") {
      for (const call of calls) {
        if (source.lookup(call.name) === undefined) {
          subscriber.error(unknownTool(call.name, source.names()));
          return;
        }
      }
    }
    const pool = new Pool(env, source, subscriber, calls);
    return pool.open();
  });
}

function streamOf(calls: Subscribable<ToolCall>, source: ToolSource, env: RunEnv): Observable<ToolEvent> {
  return new Observable<ToolEvent>((subscriber) => {
    const pool = new Pool(env, source, subscriber, undefined);
    const teardown = pool.open();
    if (pool.closed) return teardown;
    let arrived = 0;
    const input = calls.subscribe({
      next(call) {
        if (pool.closed) return;
        try {
          assertToolCall(call, arrived++);
        } catch (e) {
          pool.fail(e);
          return;
        }
        pool.push(call);
      },
      error(e: unknown) {
        pool.fail(e);
      },
      complete() {
        pool.inputDone = true;
        pool.drain();
      },
    });
    return () => {
      // A hand-written Subscribable may return no subscription at all.
      if (typeof input?.unsubscribe === "function") input.unsubscribe();
      teardown();
    };
  });
}

/**
 * The bounded merge behind both inputs: at most `concurrency` calls at once, queued calls
 * started in order as slots free up. It drains in a loop rather than by recursion, so a long
 * run of synchronous handlers behind slow ones cannot overflow the stack.
 */
class Pool implements CallSink {
  /** Calls not started yet, from `head` on; a batch's own array is read, never written. */
  #queue: readonly ToolCall[];
  #head = 0;
  arrived = 0;
  active = 0;
  inputDone: boolean;
  #closed = false;
  #closeReason: unknown;
  #draining = false;
  readonly #running = new Set<CallRun>();
  readonly #env: RunEnv;
  readonly #source: ToolSource;
  readonly #subscriber: Subscriber<ToolEvent>;

  /** `batch` is the whole input when it is known up front; otherwise calls are `push`ed. */
  constructor(env: RunEnv, source: ToolSource, subscriber: Subscriber<ToolEvent>, batch: readonly ToolCall[] | undefined) {
    this.#env = env;
    this.#source = source;
    this.#subscriber = subscriber;
    this.#queue = batch ?? [];
    this.inputDone = batch !== undefined;
  }

  push(call: ToolCall): void {
    (this.#queue as ToolCall[]).push(call);
    this.drain();
  }

  /**
   * True once the pool was failed or torn down, or the subscriber let go. The last can happen
   * during the synchronous first drain, before RxJS has our teardown to call.
   */
  get closed(): boolean {
    return this.#closed || this.#subscriber.closed;
  }

  get closeReason(): unknown {
    return this.#closed ? this.#closeReason : unsubscribed();
  }

  /** Start work; returns the teardown that cancels whatever still runs. */
  open(): () => void {
    const { signal } = this.#env;
    const onAbort = () => this.fail(signal?.reason);
    if (signal?.aborted) {
      this.fail(signal.reason);
    } else {
      signal?.addEventListener("abort", onAbort);
      this.drain();
    }
    return () => {
      signal?.removeEventListener("abort", onAbort);
      // A completed or failed pool is already closed; only a consumer letting go needs a reason.
      if (!this.#closed) this.#close(unsubscribed());
    };
  }

  drain(): void {
    if (this.#draining) return;
    this.#draining = true;
    const limit = this.#env.concurrency;
    while (!this.closed && this.active < limit && this.#head < this.#queue.length) {
      const call = this.#queue[this.#head++] as ToolCall;
      this.active++;
      new CallRun(call, this.arrived++, this.#source.lookup(call.name), this.#env, this).start();
    }
    this.#draining = false;
    if (this.closed) return;
    if (this.#head === this.#queue.length) {
      // Everything queued has started; let go of the calls so a long run does not hold them.
      if (this.#head > 0) {
        this.#queue = [];
        this.#head = 0;
      }
      if (this.inputDone && this.active === 0) {
        this.#closed = true;
        this.#subscriber.complete();
      }
    }
  }

  /** Abort everything running, then pass `reason` on as the stream's error. */
  fail(reason: unknown): void {
    if (this.#closed) return;
    this.#close(reason);
    this.#subscriber.error(reason);
  }

  next(event: ToolEvent): void {
    this.#subscriber.next(event);
  }

  notFound(who: CallIdentity): ToolError {
    return toolNotFound(who, this.#source.names());
  }

  track(run: CallRun): void {
    this.#running.add(run);
  }

  done(run: CallRun, tracked: boolean): void {
    if (tracked) this.#running.delete(run);
    this.active--;
    if (!this.#draining) this.drain();
  }

  #close(reason: unknown): void {
    if (!this.#closed) this.#closeReason = reason;
    this.#closed = true;
    for (const run of this.#running) run.cancel(reason);
    this.#running.clear();
    this.#queue = [];
    this.#head = 0;
  }
}

function unsubscribed(): DOMException {
  return new DOMException("The tool stream was unsubscribed", "AbortError");
}
