import type { PoolPlan } from "./pool-options.js";
import { PoolThread, type ThreadOwner } from "./pool-thread.js";
import { workerScript } from "./worker-script.js";

/** What a pool does with the threads it starts. */
export interface StartOwner extends ThreadOwner {
  /** No more threads: a thread that finishes starting now is not kept. */
  readonly closed: boolean;
  started(thread: PoolThread): void;
  /** A thread could not even be made. */
  startFailed(why: Error): void;
}

/**
 * A pool's threads being started: the worker script prepared once (bundled from source when it
 * is not built), how many threads are starting, and who waits for them all to be ready.
 */
export class ThreadStarts {
  readonly #plan: PoolPlan;
  readonly #owner: StartOwner;
  #script: URL | Promise<URL> | undefined;
  #warmed: (() => void)[] = [];
  /** Threads started, not ready yet. */
  starting = 0;
  /** Threads to start once the worker script is ready (from source only): counted, so the pool starts no more meanwhile. */
  unbuilt = 0;

  constructor(plan: PoolPlan, owner: StartOwner) {
    this.#plan = plan;
    this.#owner = owner;
  }

  /** Start one more thread. */
  spawn(): void {
    const plan = this.#plan;
    this.#script ??= workerScript();
    const script = this.#script;
    this.starting++;
    const start = (url: URL): void => {
      if (this.#owner.closed) return void this.starting--;
      try {
        this.#owner.started(new PoolThread(url, plan.preload, plan.resourceLimits, this.#owner));
      } catch (cause) {
        this.#owner.startFailed(cause instanceof Error ? cause : new Error(String(cause)));
      }
    };
    if (script instanceof URL) {
      start(script);
      return;
    }
    this.unbuilt++;
    void script.then((url) => {
      this.unbuilt--;
      start(url);
    });
  }

  /** Resolves once no thread is starting. */
  settled(): Promise<void> {
    return this.starting === 0 ? Promise.resolve() : new Promise((resolve) => this.#warmed.push(resolve));
  }

  /** A thread is ready or failed: wake those waiting when none is starting any more (or at once, with `force`). */
  done(force = false): void {
    if (!force && this.starting !== 0) return;
    for (const resolve of this.#warmed.splice(0)) resolve();
  }
}
