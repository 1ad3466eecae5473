import { isToolError, type HandlerResult, type ToolEvent } from "../index.js";
import type { NestedAnswer } from "./replay-record.js";

/** What the script reads of a nested call's tail event: the value, or `{ reason, message }` for its typed error. */
export function answerOf(event: ToolEvent, result: HandlerResult | undefined): NestedAnswer {
  if (event.type === "tool_result_encoded" && !event.isError) {
    const value = result?.type === "ok" ? result.value : event.content;
    let text: string | undefined;
    try {
      text = JSON.stringify(value);
    } catch {
      text = undefined;
    }
    return { ok: true, text: text ?? JSON.stringify(event.content) };
  }
  const message = "content" in event ? event.content : "";
  return { ok: false, text: JSON.stringify({ reason: reasonOf(event, result), message }) };
}

/** The closed reason the script's `ToolCallError` carries. */
function reasonOf(event: ToolEvent, result: HandlerResult | undefined): string {
  if (event.type === "tool_halt" && event.reason !== "tool_error") return "halt";
  if (result?.type !== "error") return "tool_error";
  const cause = result.reason;
  if (isToolError(cause)) return cause.reason;
  if (cause instanceof Error && cause.name === "InvalidArgumentsError") return "invalid_arguments";
  if (cause instanceof Error && cause.name === "ApprovalMismatchError") return "approval_mismatch";
  return "tool_error";
}

/**
 * The answer to a call whose arguments are not a JSON object (`tools.x(5)`, or an object whose
 * `toJSON` gives a string): the runner takes only objects, so the call never runs and the
 * script reads `invalid_arguments`, as it would for arguments its schema refuses.
 */
export function notAnObject(name: string, args: unknown): NestedAnswer {
  const got = args === null ? "null" : Array.isArray(args) ? "an array" : typeof args;
  return { ok: false, text: JSON.stringify({ reason: "invalid_arguments", message: `Expected the arguments of ${name} to be an object, got ${got}` }) };
}
