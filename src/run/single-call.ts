import type { Unsubscribable } from "rxjs";
import type { ToolEvent } from "./results/index.js";
import type { CallCancellation, RunEnv, ToolSource } from "./options/index.js";
import type { CheckedCall } from "./checks/index.js";
import { Deadlines } from "./deadlines/index.js";
import { type Abandoned, type CallSink, CallRun } from "./call/index.js";
import type { CallIdentity } from "../tool/tool-call.js";
import type { ToolError } from "../tool/tool-error.js";
import { toolNotFound, toolNotOffered } from "../tool/unknown-tool.js";
import { reportUnhandled } from "../util/report-unhandled.js";
import { describe } from "../util/safe.js";

/** Where a {@link SingleCall}'s events go: a Subscriber, or a host that needs none (a BullMQ worker's job). */
export interface CallEvents {
  next(event: ToolEvent): void;
  error(reason: unknown): void;
  complete(): void;
  /** The consumer let go: nothing more is wanted. */
  readonly closed: boolean;
}

/**
 * The runner for exactly one call: what a one-call `streamToolCalls` does after its checks (the
 * same `CallRun`, so the same events, outcome, encoding, retries, hooks, deadlines, cancels and
 * late settlements), without the pool a batch needs: no queue, no lanes (one call never waits
 * for its own tool's limit), no list of running calls, no drain loop. A BullMQ worker runs one
 * call per job, and the pool's bookkeeping was a share of every job. Internal; the property in
 * test/run/single-call.property.test.ts holds it to a one-call `streamToolCalls`.
 */
export class SingleCall implements CallSink<CallRun> {
  readonly deadlines: Deadlines;
  current: CallRun | undefined;
  readonly #env: RunEnv;
  readonly #source: ToolSource;
  readonly #out: CallEvents;
  /** The call once it went asynchronous: what a close must cancel. */
  #running: CallRun | undefined;
  /** The abandoned attempts whose grace period is under way. */
  #watched: Set<Abandoned> | undefined;
  #closed = false;
  #closeReason: unknown;
  /** Started (or answered cancelled before it started). */
  #taken = false;
  /** Its tail event is out: the stream completes once nothing is on the stack that may still emit. */
  #answered = false;
  /** Within `open`'s start, or answering a cancel: completing waits for it, as a pool completes after its drain pass. */
  #busy = false;

  constructor(env: RunEnv, source: ToolSource, out: CallEvents) {
    this.#env = env;
    this.#source = source;
    this.#out = out;
    this.deadlines = new Deadlines(env.scheduler);
  }

  /** True once failed or torn down, or once the consumer let go (possibly during the start itself). */
  get closed(): boolean {
    return this.#closed || this.#out.closed;
  }

  get closeReason(): unknown {
    return this.#closed ? this.#closeReason : unsubscribed();
  }

  /**
   * Run `call` (checked by the caller); returns the teardown that cancels it if it still runs.
   * The order is the pool's: the signal, then the `cancel` source (which may cancel the call
   * before it starts), then the start.
   */
  open(call: CheckedCall): () => void {
    const { signal, cancel } = this.#env;
    const onAbort = () => this.fail(signal?.reason);
    let cancels: Unsubscribable | undefined;
    if (signal?.aborted) {
      this.fail(signal.reason);
    } else {
      signal?.addEventListener("abort", onAbort);
      if (cancel !== undefined) {
        cancels = cancel.subscribe({ next: (request) => this.#cancelById(call, request), error: (e: unknown) => this.fail(e) });
      }
      if (!this.#taken && !this.closed) {
        this.#taken = true;
        this.#busy = true;
        new CallRun(call, 0, this.#source.lookup(call.name), this.#env, this, undefined).start();
        this.#busy = false;
        this.#settle();
      }
    }
    return () => {
      signal?.removeEventListener("abort", onAbort);
      cancels?.unsubscribe();
      if (!this.#closed) this.#close(unsubscribed());
    };
  }

  /** Abort the call if it runs, then pass `reason` on as the stream's error. */
  fail(reason: unknown): void {
    if (this.#closed) return;
    this.#close(reason);
    this.#out.error(reason);
  }

  next(event: ToolEvent): void {
    this.#out.next(event);
  }

  startClock(): number {
    return this.deadlines.now();
  }

  endClock(): number {
    return this.deadlines.now();
  }

  /** One call, one start: there is no reading of a previous call's to forget. */
  forgetClock(): void {}

  track(run: CallRun): void {
    this.#running = run;
  }

  notFound(who: CallIdentity): ToolError {
    const hidden = this.#env.notOffered?.(who.toolName);
    const names = this.#source.names();
    return hidden === undefined ? toolNotFound(who, names) : toolNotOffered(who, hidden, names);
  }

  done(): void {
    this.#running = undefined;
    this.#answered = true;
    this.#settle();
  }

  watch(run: CallRun, abandoned: Abandoned): Unsubscribable {
    this.#watched ??= new Set();
    const watched = this.#watched;
    watched.add(abandoned);
    const grace = this.#env.scheduler.schedule(onGrace, this.#env.settleGrace, { run, abandoned, watched });
    return {
      unsubscribe() {
        watched.delete(abandoned);
        grace.unsubscribe();
      },
    };
  }

  /** Complete once the call is answered and nothing that may still emit is on the stack. */
  #settle(): void {
    if (!this.#answered || this.#busy || this.closed) return;
    this.#closed = true;
    this.deadlines.close();
    this.#out.complete();
  }

  /** As the pool's cancel by id, for its one call: answered at once when it has not started, aborted and answered when it runs. */
  #cancelById(call: CheckedCall, request: string | CallCancellation): void {
    const id = typeof request === "string" ? request : request?.toolCallId;
    const reason = typeof request === "string" ? undefined : request?.reason;
    if (typeof id !== "string" || (reason !== undefined && typeof reason !== "string")) {
      reportUnhandled(new TypeError(`Expected \`cancel\` to emit a call id or { toolCallId: string, reason?: string }, got ${describe(request)}`));
      return;
    }
    if (this.closed || id !== call.id) return;
    const running = this.#running ?? this.current;
    if (running !== undefined) {
      running.cancelById(reason);
      return;
    }
    if (this.#taken) return;
    this.#taken = true;
    const busy = this.#busy;
    this.#busy = true;
    try {
      new CallRun(call, 0, this.#source.lookup(call.name), this.#env, this, undefined).answerCancelled(reason);
    } finally {
      this.#busy = busy;
    }
    this.#settle();
  }

  #close(reason: unknown): void {
    this.#closeReason = reason;
    this.#closed = true;
    this.deadlines.close();
    const running = this.#running;
    this.#running = undefined;
    running?.cancel(reason);
    for (const abandoned of this.#watched ?? []) {
      abandoned.reported = true;
      abandoned.grace?.unsubscribe();
    }
    this.#watched = undefined;
  }
}

function onGrace(this: unknown, state: { run: CallRun; abandoned: Abandoned; watched: Set<Abandoned> } | undefined): void {
  if (state === undefined) return;
  state.watched.delete(state.abandoned);
  state.run.graceOver(state.abandoned);
}

function unsubscribed(): DOMException {
  return new DOMException("The tool stream was unsubscribed", "AbortError");
}
