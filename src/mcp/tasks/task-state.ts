import { isPlainRecord } from "../../util/safe.js";

/** The states of an MCP task (protocol revision 2025-11-25). */
export type McpTaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** What toolrx reads of a task the server describes. */
export interface McpTaskState {
  readonly taskId: string;
  readonly status: McpTaskStatus;
  readonly statusMessage?: string;
  /** The server's hint, in ms, of how often to ask. */
  readonly pollInterval?: number;
}

/**
 * What a call's progress reports carry in `data.mcpTask`: enough for a journal to persist, so that
 * a process started again re-attaches to the task (see `mcpReattachCall`) instead of calling again.
 */
export interface McpTaskReport {
  readonly server: string;
  /** The tool's name on the server. */
  readonly tool: string;
  readonly taskId: string;
  readonly status: McpTaskStatus;
}

const STATUSES: ReadonlySet<string> = new Set(["working", "input_required", "completed", "failed", "cancelled"]);

/** The server's poll interval when it gives none (or none usable): the SDKs' own default, in ms. */
export const DEFAULT_POLL_INTERVAL = 1_000;

/**
 * The shortest wait, in ms, toolrx takes from a server between two `tasks/get`: a server that
 * says `pollInterval: 0` (or 1) would otherwise have toolrx poll as fast as it answers.
 */
export const MIN_POLL_INTERVAL = 100;

/**
 * How long to wait before the next `tasks/get`: the server's hint (1,000 ms without one), never
 * under {@link MIN_POLL_INTERVAL}, and never over the host's own `maxPollInterval`, which is the
 * host's choice and so wins over the floor.
 */
export function pollDelay(serverHint: number | undefined, maxPollInterval: number): number {
  return Math.min(Math.max(serverHint ?? DEFAULT_POLL_INTERVAL, MIN_POLL_INTERVAL), maxPollInterval);
}

/** Whether a task in `status` will not change any more. */
export function isTerminal(status: McpTaskStatus): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}

/**
 * A server's description of a task, checked: a non-empty `taskId` (and, when `expectedId` is
 * given, that one), a known `status`. Gives the problem as text when it is not one.
 */
export function readTask(value: unknown, expectedId?: string): McpTaskState | string {
  if (!isPlainRecord(value)) return "the task is not an object";
  const { taskId, status, statusMessage, pollInterval } = value;
  if (typeof taskId !== "string" || taskId === "") return "the task has no taskId string";
  if (expectedId !== undefined && taskId !== expectedId)
    return `asked for task ${JSON.stringify(expectedId)}, the server described task ${JSON.stringify(taskId)}`;
  if (typeof status !== "string" || !STATUSES.has(status)) return `task ${JSON.stringify(taskId)} has an unknown status ${JSON.stringify(status)}`;
  const state: { -readonly [K in keyof McpTaskState]: McpTaskState[K] } = { taskId, status: status as McpTaskStatus };
  if (typeof statusMessage === "string") state.statusMessage = statusMessage;
  if (typeof pollInterval === "number" && Number.isFinite(pollInterval) && pollInterval >= 0) state.pollInterval = pollInterval;
  return state;
}
