import { describe } from "../util/safe.js";
import { ToolError } from "./tool-error.js";

/**
 * The `invalid_return` error for a handler (or executor) that returned something other than a
 * result. Its text says what the legal shapes are, since the usual mistake is returning the
 * value itself where `ok(value)` was meant; the developer reads it in the message too.
 *
 * @example
 * invalidReturn("sunny", "weather", "c1").message;
 * // 'tool weather returned "sunny", which is not a result: return ok(value) (wrap a plain value in ok()), error(reason), askUser(question) or halt(reason, result)'
 */
export function invalidReturn(value: unknown, toolName: string, toolCallId: string): ToolError {
  return new ToolError("invalid_return", {
    message: `tool ${toolName} returned ${describe(value)}, which is not a result: return ok(value) (wrap a plain value in ok()), error(reason), askUser(question) or halt(reason, result)`,
    toolName,
    toolCallId,
    cause: value,
  });
}
