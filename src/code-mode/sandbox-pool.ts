import { type LeaseEvent, SandboxThread } from "./sandbox-worker.js";

export type { FromSandbox } from "./sandbox-message.js";
export type { LeaseEvent } from "./sandbox-worker.js";

/** How long a thread told to stop its script may take before it is terminated and replaced. */
export const STOP_GRACE_MS = 1_000;

/** One script's start, as the thread reads it. */
export interface ScriptStart {
  readonly script: string;
  readonly names: readonly string[];
  readonly limits: {
    readonly memoryBytes: number;
    readonly stackBytes: number;
    readonly cpuMs: number;
    readonly maxCalls: number;
    readonly maxArgumentBytes: number;
    readonly maxInFlightBytes: number;
    readonly maxResultBytes: number;
  };
  readonly now: number;
  readonly seed: number;
}

/** A thread lent to one script: start it, answer its calls, then give the thread back or kill it. */
export interface SandboxLease {
  /**
   * Run `script`. A slice of guest code (the start, or the handling of one answer) that has not
   * returned `stuckMs` after it began is stuck where QuickJS's interrupt handler is not asked
   * (a long native builtin): the thread is terminated and the listener hears `lost` `cpu_time`.
   */
  start(script: ScriptStart, listener: (message: LeaseEvent) => void, stuckMs: number): void;
  answer(seq: number, ok: boolean, text: string): void;
  /**
   * Give the thread back, its script stopped if it still runs, once the thread says it stopped;
   * a thread that has not said so within {@link STOP_GRACE_MS} is terminated and replaced.
   */
  release(): void;
  /** Terminate the thread (a guest stuck past its grace): the pool starts another when needed. */
  kill(): void;
}

/**
 * The threads of one code-mode tool: at most `size`, started on demand and reused, each running
 * one script at a time. A script waits for a free thread.
 */
export class SandboxPool {
  readonly #size: number;
  readonly #idle: SandboxThread[] = [];
  readonly #all = new Set<SandboxThread>();
  readonly #waiting: { resolve: (thread: SandboxThread) => void; reject: (reason: Error) => void }[] = [];
  #closed = false;

  constructor(size: number) {
    this.#size = size;
  }

  /** A thread for one script, once one is free and ready; rejects when the pool is closed or the thread cannot start. */
  async lease(): Promise<SandboxLease> {
    if (this.#closed) throw new Error("the code-mode sandbox pool is closed");
    const thread = await this.#take();
    await thread.ready;
    let done = false;
    let slices = 0;
    let stuck = 0;
    let watchdog: ReturnType<typeof setTimeout> | undefined;
    let armed = 0;
    const watch = (): void => {
      armed++;
      if (watchdog !== undefined) clearTimeout(watchdog);
      watchdog = undefined;
      if (slices === 0 || done) return;
      const mine = armed;
      watchdog = setTimeout(() => {
        // Node runs due timers before it reads the thread's messages: a host that was itself busy
        // past the deadline (a long GC, a long synchronous task) would take a thread that said
        // "idle" or "done" in time for stuck. The verdict waits for the messages already posted.
        setImmediate(() => {
          if (mine !== armed || done) return;
          done = true;
          thread.lose("cpu_time", `the script's thread was stuck for ${stuck} ms and was terminated`);
        });
      }, stuck);
    };
    const sliced = (): void => {
      slices++;
      if (slices === 1) watch();
    };
    return {
      start: (script, listener, stuckMs) => {
        stuck = stuckMs;
        thread.listener = (message) => {
          if (message.type === "idle" || message.type === "done") {
            slices = Math.max(0, slices - 1);
            watch();
          }
          listener(message);
        };
        sliced();
        thread.worker.postMessage({ type: "run", ...script });
      },
      answer: (seq, ok, text) => {
        if (done || thread.dead) return;
        sliced();
        thread.worker.postMessage({ type: "answer", seq, ok, text });
      },
      release: () => {
        if (done) return;
        done = true;
        if (watchdog !== undefined) clearTimeout(watchdog);
        if (thread.dead) {
          thread.listener = undefined;
          return;
        }
        // Guest code still running in the job that ended its script may keep the thread busy: past the grace it is replaced.
        const grace = setTimeout(() => thread.lose("killed", "the sandbox thread did not stop"), STOP_GRACE_MS);
        grace.unref();
        // Messages the script posted before it was stopped may still be on their way: the thread
        // is lent again only after its "stopped", so none of them reaches the next script.
        thread.listener = (message) => {
          if (message.type === "lost") clearTimeout(grace);
          if (message.type !== "stopped") return;
          clearTimeout(grace);
          thread.listener = undefined;
          this.#give(thread);
        };
        thread.worker.postMessage({ type: "stop" });
      },
      kill: () => {
        if (done) return;
        done = true;
        if (watchdog !== undefined) clearTimeout(watchdog);
        thread.listener = undefined;
        void thread.worker.terminate();
      },
    };
  }

  /** Start the threads now instead of on the first script; resolves once they are ready. */
  async warm(): Promise<void> {
    const threads: SandboxThread[] = [];
    while (this.#all.size < this.#size) threads.push(this.#spawn());
    await Promise.all(threads.map((t) => t.ready));
    for (const t of threads) this.#give(t);
  }

  /** End every thread, those running scripts too (their scripts end `killed`); scripts waiting for a thread end `killed` as well. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#idle.length = 0;
    for (const waiter of this.#waiting.splice(0)) waiter.reject(new Error("the code-mode sandbox pool is closed"));
    await Promise.all([...this.#all].map((t) => t.worker.terminate()));
  }

  #take(): Promise<SandboxThread> {
    const idle = this.#idle.pop();
    if (idle !== undefined) return Promise.resolve(idle);
    if (this.#all.size < this.#size) return Promise.resolve(this.#spawn());
    return new Promise((resolve, reject) => this.#waiting.push({ resolve, reject }));
  }

  #spawn(): SandboxThread {
    const spawned = new SandboxThread((thread) => {
      this.#all.delete(thread);
      const at = this.#idle.indexOf(thread);
      if (at >= 0) this.#idle.splice(at, 1);
      // A script that waits gets a new thread in place of the dead one.
      const next = this.#waiting.shift();
      if (next !== undefined && !this.#closed) next.resolve(this.#spawn());
    });
    this.#all.add(spawned);
    return spawned;
  }

  #give(thread: SandboxThread): void {
    if (this.#closed) {
      void thread.worker.terminate();
      return;
    }
    const next = this.#waiting.shift();
    if (next !== undefined) next.resolve(thread);
    else this.#idle.push(thread);
  }
}
