import type { RunOptions } from "./options/index.js";
import { RunResultCollector, type RunResult, type ToolEvent } from "./results/index.js";
import { checkBatch, snapshotCalls } from "./checks/index.js";
import { Pool, type PoolSink } from "./pool/index.js";
import { setUp, type streamToolCalls } from "./stream.js";
import type { ToolResolver } from "../resolve/resolver.js";
import type { Tool } from "../tool/tool.js";
import type { ToolCall } from "../tool/tool-call.js";
import { describe } from "../tool/tool-error.js";

/**
 * Run a batch of tool calls and collect one message per call, in input order, whatever
 * happened to each. It is {@link streamToolCalls} collected: the same checks, events and
 * policies.
 *
 * Rejects with a `TypeError` for invalid options or calls, with an `EngineError` when a call
 * names an unknown tool (no tool runs), and with the signal's reason when `opts.signal` aborts.
 *
 * @example
 * const { messages, halt } = await runToolCalls(
 *   [{ id: "c1", name: "weather", arguments: { city: "Paris" } }],
 *   [weather],
 * );
 * // messages: [{ role: "tool", toolCallId: "c1", name: "weather", content: '{"tempC":21}', isError: false }]
 * // halt: undefined
 */
export function runToolCalls(calls: readonly ToolCall[], tools: readonly Tool[] | ToolResolver, options?: RunOptions): Promise<RunResult> {
  return new Promise<RunResult>((resolve, reject) => {
    if (!Array.isArray(calls)) {
      throw new TypeError(`Expected \`calls\` to be an array of tool calls, got ${describe(calls)}`);
    }
    // The same steps, in the same order, as `streamToolCalls` over an array, then its subscription.
    const { env, source } = setUp(tools, options, calls.length);
    const batch = snapshotCalls(calls);
    if (batch.length === 0) {
      resolve({ messages: [] });
      return;
    }
    checkBatch(batch, source, env);
    const sink = new Collected(resolve, reject);
    sink.open(new Pool(env, source, sink, batch));
  });
}

/**
 * `runToolCalls`' pool reports here, into its result, instead of through an Observable and a
 * Subscriber to a collector: for one producer and one consumer that this function owns, their
 * bookkeeping on every event was all they did. Ends as the subscription would: once, with the
 * pool's teardown run (its abort listener and `cancel` subscription removed).
 */
class Collected implements PoolSink {
  readonly #collector = new RunResultCollector();
  readonly #resolve: (result: RunResult) => void;
  readonly #reject: (reason: unknown) => void;
  #ended = false;
  #teardown: (() => void) | undefined;

  constructor(resolve: (result: RunResult) => void, reject: (reason: unknown) => void) {
    this.#resolve = resolve;
    this.#reject = reject;
  }

  /** Open `pool`, which reports here. */
  open(pool: Pool): void {
    const teardown = pool.open();
    // Ended while opening (a synchronous batch, an aborted signal): the teardown is due now.
    if (this.#ended) teardown();
    else this.#teardown = teardown;
  }

  get closed(): boolean {
    return this.#ended;
  }

  next(event: ToolEvent): void {
    if (!this.#ended) this.#collector.add(event);
  }

  error(reason: unknown): void {
    if (this.#end()) this.#reject(reason);
  }

  complete(): void {
    if (this.#end()) this.#resolve(this.#collector.result());
  }

  /** Whether this is the end (the first of `error` and `complete`); the pool's teardown runs then. */
  #end(): boolean {
    if (this.#ended) return false;
    this.#ended = true;
    const teardown = this.#teardown;
    this.#teardown = undefined;
    teardown?.();
    return true;
  }
}

/**
 * `runToolCalls` over any runner with `streamToolCalls`' signature: the same array check, and
 * the stream's events collected into one message per call, in input order. Lets a wrapped
 * runner (toolrx/otel's traced one) collect exactly as the core does.
 *
 * @internal
 */
export function collectToolCalls(
  stream: typeof streamToolCalls,
  calls: readonly ToolCall[],
  tools: readonly Tool[] | ToolResolver,
  options?: RunOptions,
): Promise<RunResult> {
  return new Promise<RunResult>((resolve, reject) => {
    if (!Array.isArray(calls)) {
      throw new TypeError(`Expected \`calls\` to be an array of tool calls, got ${describe(calls)}`);
    }
    const collector = new RunResultCollector();
    stream(calls, tools, options).subscribe({
      next: (event) => collector.add(event),
      error: reject,
      complete: () => resolve(collector.result()),
    });
  });
}
