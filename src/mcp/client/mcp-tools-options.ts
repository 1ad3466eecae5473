import { checkTelemetry, type McpClientTelemetry, SDK_TIMEOUT_OFF } from "../wire/index.js";
import type { McpToolsError } from "./mcp-tools-error.js";
import type { McpToolNaming } from "./tool-names.js";
import { describe, isPlainRecord } from "../../util/safe.js";

/** Options of {@link mcpTools}. */
export interface McpToolsOptions {
  /**
   * Prefix for a single client's tool names (`<prefix>__<name>`); default none. With a record of
   * servers each key is its server's prefix.
   */
  prefix?: string;
  /** The name the model sees for each tool; default {@link defaultToolName}'s. */
  rename?: (naming: McpToolNaming) => string;
  /** Cut each result's text to this many characters, saying so; default `Infinity` (no cap). */
  maxResultChars?: number;
  /** How long listing one server's tools may take, in ms, every page included; default 10,000. */
  listTimeout?: number;
  /** Stops listing. */
  signal?: AbortSignal;
  /**
   * What to do with a tool whose `inputSchema` or `outputSchema` toolrx cannot use. Default: the
   * whole call rejects with an `invalid_schema` {@link McpToolsError}. Given a function, that tool
   * is left out, the server's other tools are kept, and the function is handed the error.
   */
  onInvalidTool?: (error: McpToolsError) => void;
  /**
   * How tools that run as MCP tasks (protocol revision 2025-11-25) are called. A tool whose
   * `execution.taskSupport` is `"required"` is always called as a task when its server declares
   * task support; one that is `"optional"` only with `optional: true`. On revision 2026-07-28 a
   * 2.x client opts every call into the tasks extension when its server declares it (the server
   * decides which calls become tasks); only `maxPollInterval` applies there.
   */
  tasks?: McpTaskOptions;
  /**
   * Put a server's `elicitation/create` during a call (revisions before 2026-07-28) to the host as
   * `ask_user`, the call held until `resumeMcpInput` answers it. The client must have been built
   * with `capabilities: { elicitation: { form: {} } }`. Without this option toolrx leaves the
   * client's own handler (if any) alone.
   */
  elicitation?: McpElicitationOptions;
  /**
   * `toolrx/otel`'s `telemetry()`: each `tools/call` carries the calling span's W3C trace context
   * in its `_meta` (`traceparent`, `tracestate`), so a server that reads it (MCP 2026-07-28;
   * `serveTools` with `telemetry`) continues the trace. Default: nothing is added.
   */
  telemetry?: McpClientTelemetry;
}

/** {@link McpToolsOptions.tasks}. */
export interface McpTaskOptions {
  /** Call `"optional"` task tools as tasks too; default `false`. */
  optional?: boolean;
  /** The task's time to live the client asks for, in ms; default: the server's choice. */
  ttl?: number;
  /** The longest wait between two `tasks/get`, in ms, whatever the server's `pollInterval` (`pollIntervalMs`); default 5,000. */
  maxPollInterval?: number;
}

/** {@link McpToolsOptions.elicitation}. */
export interface McpElicitationOptions {
  /**
   * How long a call held on a server's question waits for the host's answer, in ms; default
   * 300,000. Past it the server is answered `cancel` (dismissed) and the call is stopped.
   */
  holdFor?: number;
}

/** `options`, checked before anything is listed. @throws {TypeError} naming the bad option. */
export function checkOptions(options: McpToolsOptions): McpToolsOptions {
  if (!isPlainRecord(options)) throw new TypeError(`Expected \`options\` to be an object, got ${describe(options)}`);
  const { prefix, rename, maxResultChars, listTimeout, signal, onInvalidTool, tasks, elicitation } = options;
  checkTasks(tasks);
  checkTelemetry(options.telemetry as McpClientTelemetry | undefined, false);
  if (elicitation !== undefined) {
    if (!isPlainRecord(elicitation)) throw new TypeError(`Expected \`elicitation\` to be an object, got ${describe(elicitation)}`);
    const { holdFor } = elicitation;
    if (holdFor !== undefined && !isDelay(holdFor)) {
      throw new TypeError(`Expected \`elicitation.holdFor\` to be a positive number of ms up to 2147483647, got ${describe(holdFor)}`);
    }
  }
  if (onInvalidTool !== undefined && typeof onInvalidTool !== "function") {
    throw new TypeError(`Expected \`onInvalidTool\` to be a function, got ${describe(onInvalidTool)}`);
  }
  if (prefix !== undefined && (typeof prefix !== "string" || !/^[a-zA-Z0-9_-]*$/.test(prefix))) {
    throw new TypeError(`Expected \`prefix\` to be letters, digits, "_" or "-", got ${describe(prefix)}`);
  }
  if (rename !== undefined && typeof rename !== "function") {
    throw new TypeError(`Expected \`rename\` to be a function, got ${describe(rename)}`);
  }
  if (
    maxResultChars !== undefined &&
    maxResultChars !== Infinity &&
    !(typeof maxResultChars === "number" && Number.isInteger(maxResultChars) && maxResultChars > 0)
  ) {
    throw new TypeError(`Expected \`maxResultChars\` to be a positive integer or Infinity, got ${describe(maxResultChars)}`);
  }
  if (listTimeout !== undefined && !(typeof listTimeout === "number" && listTimeout > 0 && listTimeout <= SDK_TIMEOUT_OFF)) {
    throw new TypeError(`Expected \`listTimeout\` to be a positive number of ms up to 2147483647, got ${describe(listTimeout)}`);
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new TypeError(`Expected \`signal\` to be an AbortSignal, got ${describe(signal)}`);
  }
  return options;
}

function checkTasks(tasks: unknown): void {
  if (tasks === undefined) return;
  if (!isPlainRecord(tasks)) throw new TypeError(`Expected \`tasks\` to be an object, got ${describe(tasks)}`);
  const { optional, ttl, maxPollInterval } = tasks;
  if (optional !== undefined && typeof optional !== "boolean") throw new TypeError(`Expected \`tasks.optional\` to be a boolean, got ${describe(optional)}`);
  if (ttl !== undefined && !isDelay(ttl)) throw new TypeError(`Expected \`tasks.ttl\` to be a positive number of ms up to 2147483647, got ${describe(ttl)}`);
  if (maxPollInterval !== undefined && !isDelay(maxPollInterval)) {
    throw new TypeError(`Expected \`tasks.maxPollInterval\` to be a positive number of ms up to 2147483647, got ${describe(maxPollInterval)}`);
  }
}

function isDelay(value: unknown): boolean {
  return typeof value === "number" && value > 0 && value <= SDK_TIMEOUT_OFF;
}
