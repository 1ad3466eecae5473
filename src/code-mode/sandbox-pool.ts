import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { sandboxThread } from "./sandbox-thread.js";

// In the CommonJS build `import.meta` is empty and this module's own file is `__filename`.
const here: string = (import.meta as { url?: string }).url ?? pathToFileURL(__filename).href;

/** What a sandbox thread says about the script it runs. */
export type FromSandbox =
  | { readonly type: "ready" }
  | { readonly type: "stopped" }
  | { readonly type: "idle" }
  | { readonly type: "call"; readonly seq: number; readonly name: string; readonly args: string }
  | { readonly type: "done"; readonly ok: true; readonly value: string }
  | { readonly type: "done"; readonly ok: false; readonly code: string; readonly message: string };

/** One script's start, as the thread reads it. */
export interface ScriptStart {
  readonly script: string;
  readonly names: readonly string[];
  readonly limits: { readonly memoryBytes: number; readonly stackBytes: number; readonly cpuMs: number };
  readonly now: number;
  readonly seed: number;
}

/** A thread lent to one script: start it, answer its calls, then give the thread back or kill it. */
export interface SandboxLease {
  /**
   * Run `script`. A slice of guest code (the start, or the handling of one answer) that has not
   * returned `stuckMs` after it began is stuck where QuickJS's interrupt handler is not asked
   * (a long native builtin): the thread is terminated and the listener hears `done` `cpu_time`.
   */
  start(script: ScriptStart, listener: (message: FromSandbox) => void, stuckMs: number): void;
  answer(seq: number, ok: boolean, text: string): void;
  /** Give the thread back, its script stopped if it still runs, once the thread says it stopped. */
  release(): void;
  /** Terminate the thread (a guest stuck past its grace): the pool starts another when needed. */
  kill(): void;
}

/**
 * The thread's program. `__name` is defined for runners that keep function names by wrapping
 * them in that helper (tsx, esbuild's `keepNames`): the function's text names it, its module does not travel.
 */
const THREAD_SOURCE = `var __name = (target) => target;\n(${sandboxThread.toString()})(require);`;

let modules: { core: string; variant: string } | undefined;

/** The QuickJS packages' files, resolved from here so the thread loads the same installed copies. */
function quickjsModules(): { core: string; variant: string } {
  if (modules !== undefined) return modules;
  const require = createRequire(here);
  try {
    modules = { core: require.resolve("quickjs-emscripten-core"), variant: require.resolve("@jitl/quickjs-wasmfile-release-sync") };
  } catch (cause) {
    throw new Error(
      "toolrx/code-mode needs the optional peer dependencies `quickjs-emscripten-core` and `@jitl/quickjs-wasmfile-release-sync` (npm i quickjs-emscripten-core @jitl/quickjs-wasmfile-release-sync)",
      { cause },
    );
  }
  return modules;
}

/** A thread that runs one script at a time. */
class SandboxThread {
  readonly worker: Worker;
  readonly ready: Promise<void>;
  listener: ((message: FromSandbox) => void) | undefined;
  dead = false;

  constructor(onExit: (thread: SandboxThread) => void) {
    this.worker = new Worker(THREAD_SOURCE, { eval: true, workerData: quickjsModules() });
    this.worker.unref();
    this.ready = new Promise<void>((resolve, reject) => {
      this.worker.on("message", (message: FromSandbox) => {
        if (message.type === "ready") resolve();
        else this.listener?.(message);
      });
      this.worker.on("error", reject);
      this.worker.on("exit", () => {
        this.dead = true;
        reject(new Error("the sandbox thread exited"));
        this.listener?.({ type: "done", ok: false, code: "killed", message: "the sandbox thread ended" });
        onExit(this);
      });
    });
    // Seen by whoever waits on it; a rejection nobody waited for is not a crash.
    this.ready.catch(() => undefined);
  }
}

/**
 * The threads of one code-mode tool: at most `size`, started on demand and reused, each running
 * one script at a time. A script waits for a free thread.
 */
export class SandboxPool {
  readonly #size: number;
  readonly #idle: SandboxThread[] = [];
  readonly #waiting: ((thread: SandboxThread) => void)[] = [];
  #count = 0;
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
    const watch = (): void => {
      if (watchdog !== undefined) clearTimeout(watchdog);
      watchdog = undefined;
      if (slices === 0 || done) return;
      watchdog = setTimeout(() => {
        const listener = thread.listener;
        kill();
        listener?.({ type: "done", ok: false, code: "cpu_time", message: `the script's thread was stuck for ${stuck} ms and was terminated` });
      }, stuck);
    };
    const sliced = (): void => {
      slices++;
      if (slices === 1) watch();
    };
    const kill = (): void => {
      if (done) return;
      done = true;
      if (watchdog !== undefined) clearTimeout(watchdog);
      thread.listener = undefined;
      void thread.worker.terminate();
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
        // Messages the script posted before it was stopped may still be on their way: the thread
        // is lent again only after its "stopped", so none of them reaches the next script.
        thread.listener = (message) => {
          if (message.type !== "stopped") return;
          thread.listener = undefined;
          this.#give(thread);
        };
        thread.worker.postMessage({ type: "stop" });
      },
      kill,
    };
  }

  /** Start the threads now instead of on the first script; resolves once they are ready. */
  async warm(): Promise<void> {
    const threads: SandboxThread[] = [];
    while (this.#count < this.#size) threads.push(this.#spawn());
    await Promise.all(threads.map((t) => t.ready));
    for (const t of threads) this.#give(t);
  }

  /** End every thread; scripts running answer `killed`. */
  async close(): Promise<void> {
    this.#closed = true;
    const idle = this.#idle.splice(0);
    await Promise.all(idle.map((t) => t.worker.terminate()));
  }

  #take(): Promise<SandboxThread> {
    const idle = this.#idle.pop();
    if (idle !== undefined) return Promise.resolve(idle);
    if (this.#count < this.#size) return Promise.resolve(this.#spawn());
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  #spawn(): SandboxThread {
    this.#count++;
    return new SandboxThread((thread) => {
      this.#count--;
      const at = this.#idle.indexOf(thread);
      if (at >= 0) this.#idle.splice(at, 1);
      // A script that waits gets a new thread in place of the dead one.
      const next = this.#waiting.shift();
      if (next !== undefined && !this.#closed) next(this.#spawn());
    });
  }

  #give(thread: SandboxThread): void {
    if (this.#closed) {
      void thread.worker.terminate();
      return;
    }
    const next = this.#waiting.shift();
    if (next !== undefined) next(thread);
    else this.#idle.push(thread);
  }
}
