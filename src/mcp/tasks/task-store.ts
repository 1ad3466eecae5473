import type { McpTaskStatus } from "./task-state.js";

/** A task as `serveTools` keeps it; `task` is what `tasks/get` answers. */
export interface ServedTask {
  readonly task: {
    taskId: string;
    status: McpTaskStatus;
    statusMessage?: string;
    createdAt: string;
    lastUpdatedAt: string;
    ttl: number;
    pollInterval: number;
  };
  /** Aborted by `tasks/cancel`: the running call's `ctx.signal`. */
  readonly controller: AbortController;
  /** The `CallToolResult` once the task ended. */
  result?: Record<string, unknown>;
  /** Wakes each pending `tasks/result` when the task ends. */
  readonly waiting: Set<() => void>;
}

/**
 * Where `serveTools` keeps the tasks it serves, in this process's memory, each for its retention
 * once it ended. Pass one store to every server instance that should see the same tasks (a
 * server per Streamable HTTP session, say): a client that connects again, or from a new process,
 * then finds its task by id. A process that ends loses its tasks, unless they are written down
 * too (`tasks.records`, an `McpTaskRecords`).
 */
export class McpTaskStore {
  readonly #tasks = new Map<string, ServedTask>();

  /** @internal A new working task, kept `ttl` ms after it ends. */
  create(ttl: number, pollInterval: number): ServedTask {
    const now = new Date().toISOString();
    const taskId = `task-${globalThis.crypto.randomUUID()}`;
    const served: ServedTask = {
      task: { taskId, status: "working", createdAt: now, lastUpdatedAt: now, ttl, pollInterval },
      controller: new AbortController(),
      waiting: new Set(),
    };
    this.#tasks.set(taskId, served);
    return served;
  }

  /** @internal A task another process started (from `tasks.records`), kept here again as it was saved. */
  restore(task: ServedTask["task"], result: Record<string, unknown> | undefined): ServedTask {
    const served: ServedTask = { task: { ...task }, controller: new AbortController(), waiting: new Set() };
    this.#tasks.set(task.taskId, served);
    if (result !== undefined) {
      served.result = result;
      this.#expire(task.taskId, task.ttl);
    }
    return served;
  }

  /** @internal The task `taskId`, if it is kept. */
  get(taskId: unknown): ServedTask | undefined {
    return typeof taskId === "string" ? this.#tasks.get(taskId) : undefined;
  }

  /** @internal A running task's new status (from its `ctx.progress`). */
  update(served: ServedTask, statusMessage: string): void {
    if (isEnded(served)) return;
    served.task.statusMessage = statusMessage;
    served.task.lastUpdatedAt = new Date().toISOString();
  }

  /** @internal End the task (once); its result is kept for its `ttl`, then dropped. */
  end(served: ServedTask, status: "completed" | "failed" | "cancelled", result: Record<string, unknown>, statusMessage?: string): void {
    if (isEnded(served)) return;
    const { task } = served;
    task.status = status;
    if (statusMessage !== undefined) task.statusMessage = statusMessage;
    task.lastUpdatedAt = new Date().toISOString();
    served.result = result;
    for (const wake of served.waiting) wake();
    served.waiting.clear();
    this.#expire(task.taskId, task.ttl);
  }

  #expire(taskId: string, after: number): void {
    const timer = setTimeout(() => this.#tasks.delete(taskId), after);
    // Retention must not keep a process alive on its own.
    (timer as { unref?: () => void }).unref?.();
  }
}

/** Whether the task has ended. */
export function isEnded(served: ServedTask): boolean {
  return served.result !== undefined;
}
