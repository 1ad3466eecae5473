import { describe, isError, read } from "../util/safe.js";

/**
 * The closed set of reasons a {@link ToolError} may carry.
 *
 * - `handler_raised`: the handler threw or its promise rejected.
 * - `handler_exit`: the executor itself threw or rejected (or an isolated worker died).
 * - `timeout`: the handler ran past `toolTimeout`.
 * - `invalid_return`: the handler (or the `onToolError` policy) returned an illegal shape,
 *   or halted with a reserved reason.
 * - `encoding_failed`: the result encoder threw or returned a non-string.
 * - `not_found`: the tool has no handler, or a streamed call names no known tool.
 */
export const TOOL_ERROR_REASONS = /* @__PURE__ */ Object.freeze([
  "handler_raised",
  "handler_exit",
  "timeout",
  "invalid_return",
  "encoding_failed",
  "not_found",
] as const);

/** One of {@link TOOL_ERROR_REASONS}. */
export type ToolErrorReason = (typeof TOOL_ERROR_REASONS)[number];

/** Optional fields of a {@link ToolError}. */
export interface ToolErrorOptions {
  /** Overrides the default `tool error (<toolName>): <reason>`. */
  message?: string;
  toolName?: string;
  toolCallId?: string;
  /** What went wrong underneath: the thrown value, the illegal return, the encoder's error. */
  cause?: unknown;
  metadata?: Record<string, unknown>;
}

const reasons: ReadonlySet<string> = /* @__PURE__ */ new Set(TOOL_ERROR_REASONS);

/**
 * A failure that the executor or runner produced, as opposed to one a handler reported.
 * Its `reason` comes from a closed set, so a policy can switch on it exhaustively.
 *
 * @example
 * new ToolError("timeout", { toolName: "weather" }).message; // "tool error (weather): timeout"
 * new ToolError("oops" as never); // throws TypeError
 */
export class ToolError extends Error {
  override readonly name = "ToolError";
  readonly reason: ToolErrorReason;
  // Declared, not defined: an ES2022 class field would create these keys even when absent.
  declare readonly toolName?: string;
  declare readonly toolCallId?: string;
  declare readonly cause?: unknown;
  readonly metadata: Record<string, unknown>;

  constructor(reason: ToolErrorReason, options: ToolErrorOptions = {}) {
    if (!reasons.has(reason)) {
      throw new TypeError(`Expected \`reason\` to be one of ${TOOL_ERROR_REASONS.join(", ")}, got ${describe(reason)}`);
    }
    const { message, toolName, toolCallId, metadata = {} } = options;
    super(message ?? (toolName === undefined ? `tool error: ${reason}` : `tool error (${toolName}): ${reason}`));
    this.reason = reason;
    if (toolName !== undefined) this.toolName = toolName;
    if (toolCallId !== undefined) this.toolCallId = toolCallId;
    if ("cause" in options) this.cause = options.cause;
    this.metadata = metadata;
  }
}

/** Whether `value` is a {@link ToolError}, also across copies of this package. Never throws. */
export function isToolError(value: unknown): value is ToolError {
  if (!isError(value)) return false;
  if (value instanceof ToolError) return true;
  return read(value, "name") === "ToolError" && reasons.has(read(value, "reason") as string);
}

// Kept here too: many modules have always imported it from this one.
export { describe };
