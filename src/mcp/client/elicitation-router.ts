import { type McpClientLike, setClientRequestHandler } from "../wire/index.js";
import { isPlainRecord } from "../../util/safe.js";

/** The answer MCP expects to `elicitation/create`. */
export interface ElicitAnswer {
  action: "accept" | "decline" | "cancel";
  content?: Record<string, unknown>;
}

/** The answer of a question nobody will put to the user: dismissed, not declined (no one decided). */
export const DISMISSED: ElicitAnswer = { action: "cancel" };

/** A call that can take its server's question. */
export interface Askable {
  ask(params: Record<string, unknown>): Promise<ElicitAnswer>;
}

/** The `_meta` key that ties a request to a task (2025-11-25). */
const RELATED_TASK = "io.modelcontextprotocol/related-task";

/**
 * Routes each `elicitation/create` a server sends to the call it belongs to: the task named in
 * its `related-task` metadata, else the one call running on that client. MCP does not say which
 * request a question relates to (only HTTP streams carry it), so with several calls running the
 * question cannot be placed: it is answered as dismissed rather than put to the wrong call.
 */
export class ElicitationRouter {
  readonly #running = new Set<Askable>();
  readonly #tasks = new Map<string, Askable>();

  running(call: Askable, on: boolean): void {
    if (on) this.#running.add(call);
    else this.#running.delete(call);
  }

  task(call: Askable, taskId: string | undefined, on: boolean): void {
    if (taskId === undefined) return;
    if (on) this.#tasks.set(taskId, call);
    else if (this.#tasks.get(taskId) === call) this.#tasks.delete(taskId);
  }

  route(request: unknown, extra: unknown): Promise<ElicitAnswer> {
    const params = isPlainRecord(request) && isPlainRecord(request.params) ? request.params : {};
    const related = isPlainRecord(params._meta) && isPlainRecord(params._meta[RELATED_TASK]) ? params._meta[RELATED_TASK].taskId : undefined;
    const taskId = typeof related === "string" ? related : isPlainRecord(extra) && typeof extra.taskId === "string" ? extra.taskId : undefined;
    let call = taskId === undefined ? undefined : this.#tasks.get(taskId);
    if (call === undefined && taskId === undefined && this.#running.size === 1) call = [...this.#running][0];
    return call === undefined ? Promise.resolve(DISMISSED) : call.ask(params);
  }
}

const routers = new WeakMap<object, ElicitationRouter>();

/**
 * The router of `client`, installed as its `elicitation/create` handler the first time. The
 * client must have declared form elicitation (`capabilities.elicitation`) when it was built.
 *
 * @throws {TypeError} naming `elicitation` when the client cannot take the handler.
 */
export function elicitationRouter(client: McpClientLike): ElicitationRouter {
  let router = routers.get(client);
  if (router !== undefined) return router;
  const created = new ElicitationRouter();
  try {
    setClientRequestHandler(client, "elicitation/create", (request, extra) => created.route(request, extra));
  } catch (cause) {
    const why = cause instanceof Error ? cause.message : String(cause);
    throw new TypeError(`Expected \`elicitation\` to be used with a client built with capabilities.elicitation (${why})`, { cause });
  }
  router = created;
  routers.set(client, router);
  return router;
}

/** The host's answer as MCP takes it; anything else is sent as dismissed, never as a consent. */
export function elicitAnswer(value: unknown): ElicitAnswer {
  if (!isPlainRecord(value)) return DISMISSED;
  const { action, content } = value;
  if (action === "accept") return isPlainRecord(content) ? { action, content } : { action };
  if (action === "decline" || action === "cancel") return { action };
  return DISMISSED;
}
