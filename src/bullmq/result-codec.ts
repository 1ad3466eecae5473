import { CallCancelledError, InvalidArgumentsError, isHandlerResult, ToolError, TOOL_ERROR_REASONS, type HandlerResult, type ToolErrorReason } from "../index.js";

/**
 * How a handler's result crosses Redis: to JSON-safe data on the worker, back to the same
 * meaning on the producer (a `ToolError` stays a `ToolError` with its reason, an invalid-arguments
 * error keeps its issues).
 */
export interface ResultCodec {
  encode(result: HandlerResult): unknown;
  decode(wire: unknown): HandlerResult;
}

type WireError =
  | { kind: "tool_error"; reason: ToolErrorReason; message: string; toolName?: string; toolCallId?: string; metadata: unknown; cause?: WireError }
  | { kind: "invalid_arguments"; toolName: string; issues: unknown }
  | { kind: "cancelled"; message: string }
  | { kind: "error"; name: string; message: string }
  | { kind: "value"; value: unknown };

/** The codec used until the shared one is wired in: JSON values pass, errors become tagged records. */
export const jsonResultCodec: ResultCodec = {
  encode(result) {
    if (result.type === "error") return { type: "error", reason: toWire(result.reason) };
    if (result.type === "halt") return { type: "halt", reason: result.reason, result: result.result };
    return result;
  },
  decode(wire) {
    const w = wire as { type?: unknown; reason?: unknown };
    if (w?.type === "error") return { type: "error", reason: fromWire(w.reason as WireError) };
    if (isHandlerResult(wire)) return wire;
    throw new TypeError(`not a result: ${JSON.stringify(wire)}`);
  },
};

function toWire(value: unknown): WireError {
  if (value instanceof ToolError) {
    return {
      kind: "tool_error",
      reason: value.reason,
      message: value.message,
      toolName: value.toolName,
      toolCallId: value.toolCallId,
      metadata: value.metadata,
      cause: value.cause === undefined ? undefined : toWire(value.cause),
    };
  }
  if (value instanceof InvalidArgumentsError) return { kind: "invalid_arguments", toolName: value.toolName, issues: value.issues };
  if (value instanceof CallCancelledError) return { kind: "cancelled", message: value.message };
  if (value instanceof Error) return { kind: "error", name: value.name, message: value.message };
  return { kind: "value", value };
}

function fromWire(w: WireError): unknown {
  switch (w.kind) {
    case "tool_error": {
      const reason = TOOL_ERROR_REASONS.includes(w.reason) ? w.reason : "handler_exit";
      return new ToolError(reason, {
        message: w.message,
        ...(w.toolName === undefined ? {} : { toolName: w.toolName }),
        ...(w.toolCallId === undefined ? {} : { toolCallId: w.toolCallId }),
        ...(w.cause === undefined ? {} : { cause: fromWire(w.cause) }),
        metadata: (w.metadata ?? {}) as Record<string, unknown>,
      });
    }
    case "invalid_arguments":
      return new InvalidArgumentsError(w.toolName, w.issues as InvalidArgumentsError["issues"]);
    case "cancelled":
      return Object.assign(new Error(w.message), { name: "CallCancelledError" });
    case "error":
      return Object.assign(new Error(w.message), { name: w.name });
    default:
      return w.value;
  }
}
