import type { Tool } from "../index.js";
import type { IsolatedHandler } from "./isolated-tool.js";
import type { PoolJob } from "./pool-job.js";
import type { PoolThread } from "./pool-thread.js";

/**
 * A pool's handler numbers: a number per handler (module, export, tool name), so that a call
 * names its handler in a few bytes, defined to each thread with the first call that uses it.
 */
export class HandlerNumbers {
  readonly #byKey = new Map<string, number>();
  /** The same numbers by tool, so that a call of a tool seen before builds no key. */
  readonly #byTool = new WeakMap<Tool, number>();

  /** Send `job`'s call message to `thread`. Throws what posting it throws (a value that cannot be cloned). */
  send(job: PoolJob, thread: PoolThread): void {
    const { tool, handler } = job;
    const number = this.#byTool.get(tool) ?? this.#number(tool, handler);
    const known = thread.defined.has(number);
    thread.send(job.callMessage(number, known ? undefined : { module: handler.module, export: handler.export, toolName: tool.name }));
    if (!known) thread.defined.add(number);
  }

  /** The number of `tool`'s handler, given the first time a tool names it. */
  #number(tool: Tool, handler: IsolatedHandler): number {
    const key = `${tool.name}\0${handler.export}\0${handler.module}`;
    let number = this.#byKey.get(key);
    if (number === undefined) {
      number = this.#byKey.size;
      this.#byKey.set(key, number);
    }
    this.#byTool.set(tool, number);
    return number;
  }
}
