import type { ResultContext } from "../results/index.js";
import type { McpTaskState } from "../tasks/index.js";
import { error, type HandlerContext, type HandlerResult, ToolError } from "../../index.js";

/**
 * What a call knows of its MCP task and tells the host: each change of state as the call's
 * progress (which also feeds its idle deadline), and the task in an error's metadata.
 */
export class TaskWatch {
  /** The call's task, once its server made one (or the call re-attached to it). */
  id: string | undefined;
  readonly #rc: ResultContext;
  readonly #ctx: () => HandlerContext | undefined;
  #last: McpTaskState | undefined;
  #changes = 0;

  /** `ctx` gives the handler running the call now, if any: a held call reports to no one. */
  constructor(rc: ResultContext, ctx: () => HandlerContext | undefined) {
    this.#rc = rc;
    this.#ctx = ctx;
  }

  /** The task's last state seen. */
  get last(): McpTaskState | undefined {
    return this.#last;
  }

  /** A state of the task: only a change is reported, the task id with it. */
  state(state: McpTaskState): void {
    const last = this.#last;
    this.#last = state;
    if (last !== undefined && last.status === state.status && last.statusMessage === state.statusMessage) return;
    this.#ctx()?.progress({ progress: ++this.#changes, message: state.statusMessage ?? state.status, data: { mcpTask: this.#report(state) } });
  }

  /** The task as an error's metadata names it; empty before the server made one. */
  meta(): Record<string, unknown> {
    return this.#last === undefined ? {} : { mcpTask: this.#report(this.#last) };
  }

  /** A server's answer about the task that toolrx cannot follow: the call fails with `invalid_return`. */
  malformed(problem: string, value: unknown): HandlerResult {
    const rc = this.#rc;
    const message = `MCP server answered task tool ${rc.mcpName} with a task toolrx cannot follow: ${problem}`;
    return error(new ToolError("invalid_return", { message, toolName: rc.toolName, toolCallId: rc.toolCallId, cause: value, metadata: this.meta() }));
  }

  #report(state: McpTaskState) {
    return { server: this.#rc.server, tool: this.#rc.mcpName, taskId: state.taskId, status: state.status };
  }
}
