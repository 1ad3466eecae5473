/**
 * A bare `worker_threads` pool, the limit an isolated call is measured against: calls queue in
 * the main thread, each thread runs one at a time (as toolrx's pool does), post and answer,
 * nothing else: no deadline, no abort, no codec, no runner.
 */
import { Worker } from "node:worker_threads";

export class BarePool {
  #idle = [];
  #threads = [];
  #queue = [];
  #pending = new Map();
  #ids = 0;
  /** Answers received, to check that each call was answered exactly once. */
  answered = 0;

  constructor(size) {
    for (let t = 0; t < size; t++) {
      const worker = new Worker(new URL("./bare-pool-worker.mjs", import.meta.url));
      worker.on("message", (message) => this.#answer(worker, message));
      this.#threads.push(worker);
      this.#idle.push(worker);
    }
  }

  /** Run `handler` (an export of bench/lib/isolated-handlers.mjs) on `args`; resolves with its value. */
  run(args, handler = "echo") {
    return new Promise((resolve) => {
      const job = { id: ++this.#ids, args, handler, resolve };
      const worker = this.#idle.pop();
      if (worker === undefined) this.#queue.push(job);
      else this.#send(worker, job);
    });
  }

  #send(worker, job) {
    this.#pending.set(job.id, job);
    worker.postMessage({ id: job.id, args: job.args, handler: job.handler });
  }

  #answer(worker, { id, value }) {
    const job = this.#pending.get(id);
    if (job === undefined) throw new Error(`bare pool: call ${id} answered twice or never asked`);
    this.#pending.delete(id);
    this.answered++;
    const next = this.#queue.shift();
    if (next === undefined) this.#idle.push(worker);
    else this.#send(worker, next);
    job.resolve(value);
  }

  close() {
    return Promise.all(this.#threads.map((w) => w.terminate()));
  }
}
