import type { ToolEvent } from "./results/index.js";
import type { RunEnv, ToolSource } from "./options/index.js";
import type { CheckedCall } from "./checks/index.js";
import { Pool, type PoolSink, type SharedAbort } from "./pool/index.js";
import type { ToolCall } from "../tool/tool-call.js";

/** Where a {@link CheckedFeed}'s pool reports: the agent loop's batch. */
export interface FeedHost {
  /** One event of a call, as `streamToolCalls` would emit it. */
  event(event: ToolEvent): void;
  /** The run failed (the signal aborted, a `cancel` source errored, the tools refused to index): nothing more comes. */
  failed(error: unknown): void;
  /** Every call pushed is answered and {@link CheckedFeed.end} was called. */
  completed(): void;
}

/**
 * The runner over calls that were checked already, with options resolved already, pushed into
 * its pool directly: what `streamToolCalls` does for an Observable of calls after its checks,
 * without the Observable. The agent loop checks each call as the model's reply brings it and
 * resolves the run's options once per run; an Observable input and a Subscriber would add their
 * bookkeeping to every call and every event, for one producer and one consumer the loop owns.
 * Internal: the agent loop's entry into the runner.
 */
export class CheckedFeed implements PoolSink {
  readonly #pool: Pool | undefined;
  readonly #host: FeedHost;
  #teardown: (() => void) | undefined;
  #ended = false;

  /**
   * Starts at once: the tools index (a resolver lists them only now), then the pool opens.
   * `abort`: the listener of `env.signal` the run's feeds share (see `SharedAbort`).
   */
  constructor(source: ToolSource, env: RunEnv, host: FeedHost, abort?: SharedAbort) {
    this.#host = host;
    try {
      source.check();
    } catch (e) {
      this.error(e);
      return;
    }
    this.#pool = new Pool(env, source, this, undefined);
    const teardown = this.#pool.open(abort);
    // Failed while opening (an aborted signal): the teardown is due now.
    if (this.#ended) teardown();
    else this.#teardown = teardown;
  }

  /** Run `call`, which the caller checked (the brand is its word). */
  push(call: ToolCall): void {
    const pool = this.#pool;
    if (pool !== undefined && !pool.closed) pool.push(call as CheckedCall);
  }

  /** No more calls will come: completes once those pushed are answered (maybe synchronously). */
  end(): void {
    const pool = this.#pool;
    if (pool === undefined || pool.closed) return;
    pool.inputDone = true;
    pool.drain();
  }

  /** Let go: running handlers are aborted, nothing more is reported. */
  stop(): void {
    this.#ended = true;
    this.#finish();
  }

  /** The pool's side of {@link PoolSink}: nothing more is wanted once the feed ended or was stopped. */
  get closed(): boolean {
    return this.#ended;
  }

  next(event: ToolEvent): void {
    if (!this.#ended) this.#host.event(event);
  }

  error(reason: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#finish();
    this.#host.failed(reason);
  }

  complete(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#finish();
    this.#host.completed();
  }

  /** The pool's teardown, once: its abort listener and `cancel` subscription go, whatever still runs is cancelled. */
  #finish(): void {
    const teardown = this.#teardown;
    this.#teardown = undefined;
    teardown?.();
  }
}
