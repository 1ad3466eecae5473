import type { McpClientLike } from "../wire/index.js";
import { type McpTaskState, readTask } from "./task-state.js";
import { isPlainRecord } from "../../util/safe.js";

/** The identifier of the tasks extension of protocol revision 2026-07-28 (SEP-2663). */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** The per-request `_meta` key of the client's capabilities (revision 2026-07-28). */
export const CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";

/**
 * A task as a `tasks/get` of the extension describes it: the state toolrx follows, with what is
 * inlined for its status (the result, the JSON-RPC error, the outstanding input requests).
 */
export interface McpExtTaskState extends McpTaskState {
  readonly result?: Record<string, unknown>;
  readonly error?: Record<string, unknown>;
  readonly inputRequests?: Record<string, unknown>;
}

interface ModernClient {
  getProtocolEra(): string;
  getServerCapabilities(): unknown;
  /** The 2.x client's per-request envelope (protocol version, client info, client capabilities). */
  _outboundMetaEnvelope(): unknown;
}

/**
 * The `_meta` that opts one request into the tasks extension, or `undefined` when `client` cannot:
 * a 2.x client on revision 2026-07-28 whose server declared the extension. The client's own
 * capabilities are kept and the extension added, since a request's `_meta` key replaces the one
 * the SDK would attach. The spec has the client opt in per request, never for the session.
 */
export function extTaskMeta(client: McpClientLike): Record<string, unknown> | undefined {
  const modern = client as unknown as Partial<ModernClient>;
  if (typeof modern.getProtocolEra !== "function" || modern.getProtocolEra() !== "modern") return undefined;
  const capabilities = modern.getServerCapabilities?.();
  if (!isPlainRecord(capabilities) || !isPlainRecord(capabilities.extensions) || !isPlainRecord(capabilities.extensions[TASKS_EXTENSION])) return undefined;
  const envelope = typeof modern._outboundMetaEnvelope === "function" ? modern._outboundMetaEnvelope.call(client) : undefined;
  if (!isPlainRecord(envelope)) return undefined;
  const own = isPlainRecord(envelope[CLIENT_CAPABILITIES]) ? envelope[CLIENT_CAPABILITIES] : {};
  const extensions = isPlainRecord(own.extensions) ? own.extensions : {};
  return { ...envelope, [CLIENT_CAPABILITIES]: { ...own, extensions: { ...extensions, [TASKS_EXTENSION]: {} } } };
}

/** Whether the capabilities a 2026-07-28 request carries opt it into the tasks extension. */
export function optsIntoTasks(capabilities: unknown): boolean {
  return isPlainRecord(capabilities) && isPlainRecord(capabilities.extensions) && isPlainRecord(capabilities.extensions[TASKS_EXTENSION]);
}

/**
 * A task of the extension (a `CreateTaskResult` or a `tasks/get` answer), checked as the
 * 2025-11-25 form is (a non-empty `taskId`, that one when `expectedId` is given, a known status),
 * plus what its status requires inline: a `completed` task's `result` and a `failed` task's
 * `error` objects, an `input_required` task's `inputRequests`. `pollIntervalMs` is read only when
 * it is a non-negative integer. A `handle` (the `CreateTaskResult`) carries nothing inline. Gives
 * the problem as text when it is not a task.
 */
export function readExtTask(value: unknown, expectedId?: string, handle = false): McpExtTaskState | string {
  if (!isPlainRecord(value)) return "the task is not an object";
  const { pollInterval: _ignored, pollIntervalMs, result, error, inputRequests, ...rest } = value;
  const base = readTask(rest, expectedId);
  if (typeof base === "string") return base;
  const state: { -readonly [K in keyof McpExtTaskState]: McpExtTaskState[K] } = { ...base };
  if (Number.isSafeInteger(pollIntervalMs) && (pollIntervalMs as number) >= 0) state.pollInterval = pollIntervalMs as number;
  const inline = (field: string, found: unknown): string | undefined =>
    isPlainRecord(found) ? undefined : `task ${JSON.stringify(base.taskId)} is ${base.status} without a${field === "inputRequests" ? "n" : ""} ${field} object`;
  const problem = handle
    ? undefined
    : base.status === "completed"
      ? inline("result", result)
      : base.status === "failed"
        ? inline("error", error)
        : base.status === "input_required"
          ? inline("inputRequests", inputRequests)
          : undefined;
  if (problem !== undefined) return problem;
  if (base.status === "completed") state.result = result as Record<string, unknown>;
  if (base.status === "failed") state.error = error as Record<string, unknown>;
  if (base.status === "input_required") state.inputRequests = inputRequests as Record<string, unknown>;
  return state;
}
