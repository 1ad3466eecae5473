import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { GUEST_PRELUDE } from "./guest-prelude.js";
import { readSandboxMessage, type FromSandbox } from "./sandbox-message.js";
import { sandboxThread } from "./sandbox-thread.js";
import { cpuBudget } from "./cpu-budget.js";
import { threadCpuClock } from "./thread-cpu-clock.js";

// In the CommonJS build `import.meta` is empty and this module's own file is `__filename`.
const here: string = (import.meta as { url?: string }).url ?? pathToFileURL(__filename).href;

/** What a lease's listener hears: the thread's checked messages, or that the host ended the thread. */
export type LeaseEvent =
  | FromSandbox
  | {
      readonly type: "lost";
      /** `killed`: the thread died or the pool closed; `cpu_time`: stuck past its grace; `protocol_error`: it posted what no thread posts. */
      readonly code: "killed" | "cpu_time" | "protocol_error";
      readonly message: string;
    };

/**
 * The thread's program: {@link sandboxThread} called with the thread's `require` and the two
 * functions of its CPU limit, all as text. `__name` is defined for runners that keep function
 * names by wrapping them in that helper (tsx, esbuild's `keepNames`): the function's text names
 * it, its module does not travel.
 */
export const THREAD_SOURCE = `var __name = (target) => target;\n(${sandboxThread.toString()})(require, ${threadCpuClock.toString()}, ${cpuBudget.toString()});`;

let modules: { core: string; variant: string; prelude: string } | undefined;

/** The QuickJS packages' files, resolved from here so the thread loads the same installed copies. */
export function quickjsModules(): { core: string; variant: string; prelude: string } {
  if (modules !== undefined) return modules;
  const require = createRequire(here);
  try {
    modules = { core: require.resolve("quickjs-emscripten-core"), variant: require.resolve("@jitl/quickjs-wasmfile-release-sync"), prelude: GUEST_PRELUDE };
  } catch (cause) {
    throw new Error(
      "toolrx/code-mode needs the optional peer dependencies `quickjs-emscripten-core` and `@jitl/quickjs-wasmfile-release-sync` (npm i quickjs-emscripten-core @jitl/quickjs-wasmfile-release-sync)",
      { cause },
    );
  }
  return modules;
}

/** A thread that runs one script at a time. */
export class SandboxThread {
  readonly worker: Worker;
  readonly ready: Promise<void>;
  listener: ((message: LeaseEvent) => void) | undefined;
  dead = false;

  constructor(onExit: (thread: SandboxThread) => void) {
    this.worker = new Worker(THREAD_SOURCE, { eval: true, workerData: quickjsModules() });
    this.worker.unref();
    this.ready = new Promise<void>((resolve, reject) => {
      this.worker.on("message", (raw: unknown) => {
        const message = readSandboxMessage(raw);
        if (message?.type === "ready") resolve();
        else if (message === undefined) this.lose("protocol_error", "the sandbox thread posted a message of no known shape");
        else this.tell(message);
      });
      this.worker.on("error", reject);
      this.worker.on("exit", () => {
        this.dead = true;
        reject(new Error("the sandbox thread exited"));
        this.tell({ type: "lost", code: "killed", message: "the sandbox thread ended" });
        onExit(this);
      });
    });
    // Seen by whoever waits on it; a rejection nobody waited for is not a crash.
    this.ready.catch(() => undefined);
  }

  /** Terminate the thread and tell its script why, once: the listener is gone after. */
  lose(code: "killed" | "cpu_time" | "protocol_error", message: string): void {
    const listener = this.listener;
    this.listener = undefined;
    void this.worker.terminate();
    listener?.({ type: "lost", code, message });
  }

  /** Hand a message to the script's listener; whatever it throws ends the thread, never the host. */
  tell(message: LeaseEvent): void {
    try {
      this.listener?.(message);
    } catch (thrown) {
      this.lose("protocol_error", `the host could not take the thread's message: ${thrown instanceof Error ? thrown.message : String(thrown)}`);
    }
  }
}
