/**
 * toolrx's own worker thread (dist/node/worker.js) driven by the bare pool's host: the same queue,
 * post and answer as bench/lib/bare-pool.mjs, with toolrx's call messages and the real worker
 * (its executor, `ctx`, codec) on the other side, and no runner, pool bookkeeping or decoding in
 * this thread. Against the bare pool it measures the worker and its messages; against toolrx,
 * what the calling thread adds (the runner and the pool).
 */
import { Worker } from "node:worker_threads";

export class ProtocolPool {
  #idle = [];
  #threads = [];
  #defined = new WeakSet();
  #queue = [];
  #pending = new Map();
  #ids = 0;
  #module;
  #export;

  /** `size` threads of `dist`'s worker, each running `exportName` of `module` (a file URL). */
  constructor(dist, size, module, exportName) {
    this.#module = module;
    this.#export = exportName;
    this.ready = Promise.all(
      Array.from({ length: size }, () => {
        // The claim cell under both names: `claim` since the work-stealing change, `recalled` in builds before it (`--against`).
        const cell = new SharedArrayBuffer(4);
        const worker = new Worker(new URL("node/worker.js", dist), { workerData: { preload: [], claim: cell, recalled: cell } });
        this.#threads.push(worker);
        return new Promise((resolve) => {
          worker.on("message", (message) => {
            if (Array.isArray(message)) this.#answer(worker, message);
            else if (message.type === "ready") {
              this.#idle.push(worker);
              resolve();
            }
          });
        });
      }),
    );
  }

  /** Resolves with the handler's `ok` value. */
  run(args) {
    return new Promise((resolve) => {
      const job = { id: ++this.#ids, args, resolve };
      const worker = this.#idle.pop();
      if (worker === undefined) this.#queue.push(job);
      else this.#send(worker, job);
    });
  }

  #send(worker, job) {
    this.#pending.set(job.id, job);
    // The tool call as toolrx's pool sends one that is only `id`, `name` and `arguments` (src/node/protocol.ts).
    const call = [job.id, 0, job.args, `c${job.id}`, this.#export, job.args, undefined, undefined, undefined];
    if (!this.#defined.has(worker)) {
      this.#defined.add(worker);
      call.push({ module: this.#module, export: this.#export, toolName: this.#export });
    }
    worker.postMessage(call);
  }

  #answer(worker, message) {
    // An ok result without parts crosses as its value alone, `[id, value]` (src/node/protocol.ts).
    const [id, answered] = message;
    const result = message.length === 2 ? { type: "ok", value: answered } : answered;
    const job = this.#pending.get(id);
    if (job === undefined || result.type !== "ok") throw new Error(`protocol pool: call ${id} answered ${JSON.stringify(result)}`);
    this.#pending.delete(id);
    const next = this.#queue.shift();
    if (next === undefined) this.#idle.push(worker);
    else this.#send(worker, next);
    job.resolve(result.value);
  }

  close() {
    return Promise.all(this.#threads.map((w) => w.terminate()));
  }
}
