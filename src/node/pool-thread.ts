import { Worker } from "node:worker_threads";
import type { ResourceLimits } from "./pool-options.js";
import { isResult, type FromWorker, type ToWorker, type WorkerSetup } from "./protocol.js";

/** What a thread tells its pool. */
export interface ThreadOwner {
  /** The thread imported its preloads and can take a call. */
  ready(thread: PoolThread): void;
  message(thread: PoolThread, message: FromWorker): void;
  /** The thread is gone: it exited, crashed, ran out of memory, or was terminated. */
  exited(thread: PoolThread, why: Error): void;
}

/**
 * One worker thread of a pool. It holds the process open only while it runs a call: an idle
 * pool never keeps a program from exiting.
 */
export class PoolThread {
  readonly #worker: Worker;
  readonly #owner: ThreadOwner;
  #ready = false;
  #gone = false;
  #crash: Error | undefined;
  /** The call it runs (still running after an abort, during the grace period), if any. */
  job: unknown;
  /** The call posted to it behind `job`, not taken yet, if any. */
  next: unknown;
  /** The pool's handler numbers this thread was told the meaning of. */
  readonly defined = new Set<number>();

  /** A call this thread had posted ahead that the pool took back, until the thread answers it `unstarted`: nothing is posted ahead to it meanwhile. */
  takenBack: number | undefined;

  /** See {@link WorkerSetup.claim}. */
  readonly #claim = new Int32Array(new SharedArrayBuffer(4));

  constructor(script: URL, preload: readonly string[], resourceLimits: ResourceLimits | undefined, owner: ThreadOwner) {
    this.#owner = owner;
    const setup: WorkerSetup = { preload, claim: this.#claim.buffer as SharedArrayBuffer };
    this.#worker = new Worker(script, { workerData: setup, ...(resourceLimits !== undefined && { resourceLimits }) });
    this.#worker.on("message", (message: FromWorker) => {
      if (this.#gone) return;
      if (!isResult(message) && message.type === "ready") {
        this.#ready = true;
        this.#worker.unref();
        owner.ready(this);
      } else {
        owner.message(this, message);
      }
    });
    // An uncaught error, an unhandled rejection, or running out of memory: `exit` follows.
    this.#worker.on("error", (crash: Error) => {
      this.#crash ??= crash;
    });
    this.#worker.on("exit", (code: number) => this.#exited(this.#crash ?? new Error(`the worker exited with code ${code}`)));
  }

  /** It said it was ready, once: a thread that never did failed to start. */
  get started(): boolean {
    return this.#ready;
  }

  get gone(): boolean {
    return this.#gone;
  }

  /**
   * Send a message; a structured-clone failure (a function in the context) is thrown to the
   * caller, which answers that call alone.
   */
  send(message: ToWorker): void {
    this.#worker.postMessage(message);
  }

  /** Call `id` is posted ahead to it: the thread claims it before it starts it (see {@link WorkerSetup.claim}). */
  postedAhead(id: number): void {
    Atomics.store(this.#claim, 0, id);
  }

  /**
   * Take back call `id`, posted ahead to it, unless the thread has claimed it: `true` means the
   * thread will never start it, and answers it `unstarted` (see {@link WorkerSetup.claim}).
   */
  takeBack(id: number): boolean {
    if (Atomics.compareExchange(this.#claim, 0, id, -id) !== id) return false;
    this.takenBack = id;
    return true;
  }

  /** The thread answered `unstarted` the call taken back from it: it may be posted ahead to again. */
  gaveBack(): void {
    const id = this.takenBack as number;
    this.takenBack = undefined;
    Atomics.compareExchange(this.#claim, 0, -id, 0);
  }

  /** It runs a call: keep the process alive for it. */
  busy(): void {
    this.#worker.ref();
  }

  /** It is idle again. */
  idle(): void {
    this.job = undefined;
    this.#worker.unref();
  }

  /**
   * Stop the thread now, whatever it runs; the owner hears `exited` at once, or, with a call
   * posted ahead (`next`), once the thread is gone and its last messages are read: the answer
   * before `next` may be among them, and only without it is `next` sure not to have started.
   */
  kill(why: Error): Promise<unknown> {
    const done = this.#worker.terminate();
    if (this.next === undefined) this.#exited(why);
    else this.#crash = why;
    return done;
  }

  #exited(why: Error): void {
    if (this.#gone) return;
    this.#gone = true;
    this.#owner.exited(this, why);
  }
}
