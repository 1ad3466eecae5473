import type { Unsubscribable } from "rxjs";
import type { ToolEvent } from "../results/index.js";
import type { RunEnv, ToolSource } from "../options/index.js";
import type { Tool } from "../../tool/tool.js";
import type { CallIdentity, ToolCall } from "../../tool/tool-call.js";
import type { ToolError } from "../../tool/tool-error.js";
import { toolNotFound, toolNotOffered } from "../../tool/unknown-tool.js";
import type { CheckedCall } from "../checks/index.js";
import { Deadlines } from "../deadlines/index.js";
import { type CallSink, type Abandoned, CallRun } from "../call/index.js";
import { Lanes, type Lane } from "./lanes.js";
import type { CancelScope } from "./pool-cancel.js";
import { openPool } from "./pool-open.js";
import { compactBacklog, releaseStarted } from "./pool-queue.js";
import type { PoolSink } from "./pool-sink.js";
import type { SharedAbort } from "./shared-abort.js";
import { stopAll, track, untrack, watch } from "./pool-running.js";

/**
 * The bounded merge behind both inputs: at most `concurrency` calls at once, queued calls
 * started in order as slots free up. It drains in a loop rather than by recursion, so a long
 * run of synchronous handlers behind slow ones cannot overflow the stack. A call whose tool (or
 * group) is at its own limit waits in that lane without holding a global slot, so calls of
 * other tools go ahead; within a lane, input order is kept.
 */
export class Pool implements CallSink<CallRun>, CancelScope {
  // Internal: queue, head, base, draining, running, env, source, lanes, skip and watched are
  // ordinary fields only so that pool-cancel.ts, pool-queue.ts and pool-running.ts can share them.
  /** Calls not started yet, from `head` on; a batch's own array is read, never written. */
  queue: readonly CheckedCall[];
  head = 0;
  /** Input index of `queue[0]`. */
  base = 0;
  readonly #batch: boolean;
  /** Calls received so far: the next streamed call's index. */
  arrived = 0;
  active = 0;
  inputDone: boolean;
  #closed = false;
  #closeReason: unknown;
  draining = false;
  /** The clock as last read during this drain pass; see {@link Pool.startClock}. */
  #passNow: number | undefined;
  /** The calls that went asynchronous (see pool-running.ts). */
  readonly running: CallRun[] = [];
  readonly deadlines: Deadlines;
  current: CallRun | undefined;
  readonly env: RunEnv;
  readonly source: ToolSource;
  readonly #subscriber: PoolSink;
  lanes: Lanes | undefined;
  /** Indices of queued calls already answered as cancelled. */
  skip: Set<number> | undefined;
  watched: Set<Abandoned> | undefined;

  /**
   * `batch` is the whole input when it is known up front; otherwise calls are `push`ed. Either way
   * only calls checks/ passed: the pool schedules, it does not validate.
   */
  constructor(env: RunEnv, source: ToolSource, subscriber: PoolSink, batch: readonly CheckedCall[] | undefined) {
    this.env = env;
    this.source = source;
    this.#subscriber = subscriber;
    this.queue = batch ?? [];
    this.#batch = batch !== undefined;
    this.inputDone = this.#batch;
    this.arrived = this.queue.length;
    this.deadlines = new Deadlines(env.scheduler);
  }

  /**
   * A streamed call. With a slot free and nothing queued or parked, it starts at once, without
   * the queue (which the loop, pushing one call at a time, grew afresh for every call). During a
   * pass it is queued, for the pass's loop to start: the stack stays flat. Either way `base`
   * moves past it once it leaves the (empty) queue's place.
   */
  push(call: CheckedCall): void {
    const index = this.arrived++;
    if (this.draining || this.queue.length !== 0 || this.active >= this.env.concurrency || (this.lanes?.parked ?? 0) !== 0 || this.closed) {
      (this.queue as CheckedCall[]).push(call);
      this.drain();
      return;
    }
    this.base++;
    this.draining = true;
    this.#take(call, index);
    this.#pass();
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

  /** Start work; returns the teardown that cancels whatever still runs (see {@link openPool}). */
  open(shared?: SharedAbort): () => void {
    return openPool(this, shared);
  }

  /** The consumer let go: cancel what runs. A completed or failed pool is already closed. */
  letGo(): void {
    if (!this.#closed) this.#close(unsubscribed());
  }

  drain(): void {
    if (this.draining) return;
    this.draining = true;
    this.#pass();
  }

  /** One drain pass, `draining` set: start what can start, then let go of the queue or complete. */
  #pass(): void {
    const limit = this.env.concurrency;
    while (!this.closed && this.active < limit) {
      if (this.lanes !== undefined && this.lanes.parked > 0) {
        const ready = this.lanes.takeReady();
        if (ready !== undefined) {
          this.#start(ready[0].call, ready[0].index, ready[0].tool, ready[1]);
          continue;
        }
      }
      if (this.head >= this.queue.length) break;
      const index = this.base + this.head;
      const call = this.queue[this.head++] as ToolCall;
      if (this.skip?.delete(index) === true) continue;
      // #take's body, written out: the batch path's loop stays as it was before push's direct start.
      const tool = this.source.lookup(call.name);
      if (tool?.control === undefined) {
        this.#start(call, index, tool, undefined);
        continue;
      }
      this.#take(call, index, tool);
    }
    this.draining = false;
    this.#passNow = undefined;
    if (this.closed) return;
    if (this.head === this.queue.length) {
      releaseStarted(this);
      if (this.inputDone && this.active === 0 && (this.lanes?.parked ?? 0) === 0) {
        this.#closed = true;
        this.deadlines.close();
        this.#subscriber.complete();
      }
    } else if (!this.#batch) compactBacklog(this);
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

  /**
   * When a handler starts. Within one synchronous drain pass, the reading taken when the previous
   * synchronous handler returned is reused: a clock read is a fifth of a sync call's cost. What
   * runs in between is that call's outcome and events (and the consumer's handling of them), so
   * a deadline may start that much early: microseconds, unless the consumer blocks on an event.
   */
  startClock(): number {
    if (!this.draining) return this.deadlines.now();
    this.#passNow ??= this.deadlines.now();
    return this.#passNow;
  }

  /** When a handler returned or settled: always read, and kept for the next start in this pass. */
  endClock(): number {
    const now = this.deadlines.now();
    if (this.draining) this.#passNow = now;
    return now;
  }

  forgetClock(): void {
    this.#passNow = undefined;
  }

  track(run: CallRun): void {
    track(this, run);
  }

  notFound(who: CallIdentity): ToolError {
    const hidden = this.env.notOffered?.(who.toolName);
    return hidden === undefined ? toolNotFound(who, this.source.names()) : toolNotOffered(who, hidden, this.source.names());
  }

  done(run: CallRun, tracked: boolean, now?: number): void {
    if (tracked) untrack(this, run);
    this.active--;
    if (run.lane !== undefined) (run.lane as Lane).active--;
    if (!this.draining) {
      // The reading taken when the handler settled starts the next call, as within a drain pass
      // (see startClock): one clock read per async call instead of two, a tenth of its cost.
      this.#passNow = now;
      this.drain();
    }
  }

  watch(run: CallRun, abandoned: Abandoned): Unsubscribable {
    return watch(this, run, abandoned);
  }

  /** Start a call that has a global slot, or park it in its tool's lane when that is full. */
  #take(call: ToolCall, index: number, tool = this.source.lookup(call.name)): void {
    if (tool?.control === undefined) {
      this.#start(call, index, tool, undefined);
      return;
    }
    this.lanes ??= new Lanes();
    const lanes = this.lanes;
    const lane = lanes.of(tool);
    if (lane === undefined || !lanes.park(lane, call, index, tool)) this.#start(call, index, tool, lane);
  }

  #start(call: ToolCall, index: number, tool: Tool | undefined, lane: Lane | undefined): void {
    this.active++;
    if (lane !== undefined) lane.active++;
    new CallRun(call, index, tool, this.env, this, lane).start();
  }

  #close(reason: unknown): void {
    if (!this.#closed) this.#closeReason = reason;
    this.#closed = true;
    this.deadlines.close();
    stopAll(this, reason);
    this.queue = [];
    this.head = 0;
    this.lanes?.clear();
    this.lanes = undefined;
  }
}

function unsubscribed(): DOMException {
  return new DOMException("The tool stream was unsubscribed", "AbortError");
}
