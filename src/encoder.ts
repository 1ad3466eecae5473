import { isToolError } from "./tool-error.js";

/**
 * Turns results into the text of a tool message. `encode` may throw; the runner turns that into
 * an `encoding_failed` error. `encodeError` renders any error term for the model.
 */
export interface ToolResultEncoder {
  encode(value: unknown): string;
  encodeError(reason: unknown): string;
}

/**
 * The default encoder. Strings pass through raw; everything else is `JSON.stringify`'d, and a
 * value JSON cannot represent (`undefined`, a function, a symbol, a bigint, a cycle) throws
 * instead of becoming a silent `undefined`. Errors become `{"error": "<text>"}`, never with a
 * stack trace.
 *
 * @example
 * jsonEncoder.encode({ tempC: 21 });      // '{"tempC":21}'
 * jsonEncoder.encode("sunny");            // 'sunny'
 * jsonEncoder.encodeError("no such city"); // '{"error":"no such city"}'
 */
export const jsonEncoder: ToolResultEncoder = Object.freeze({
  encode(value: unknown): string {
    if (typeof value === "string") return value;
    const text: string | undefined = JSON.stringify(value);
    if (text === undefined) {
      throw new TypeError(`Cannot encode ${value === undefined ? "undefined" : typeof value} as JSON`);
    }
    return text;
  },
  encodeError(reason: unknown): string {
    return JSON.stringify({ error: errorText(reason) });
  },
});

/**
 * The text of an error term: what happened and why, in one line a model can read. For a
 * `ToolError` that is its reason, its message and its cause; never a stack.
 */
export function errorText(reason: unknown): string {
  if (typeof reason === "string") return reason;
  if (isToolError(reason)) {
    const head = reason.message.includes(reason.reason) ? reason.message : `${reason.reason}: ${reason.message}`;
    return "cause" in reason && reason.cause !== undefined ? `${head}: ${causeText(reason.cause)}` : head;
  }
  if (reason instanceof Error) return reason.message;
  return safeJson(reason);
}

function causeText(cause: unknown): string {
  return cause instanceof Error ? cause.message : safeJson(cause);
}

/** A JSON rendering that cannot throw: cycles, bigints and the like fall back to `String`. */
function safeJson(value: unknown): string {
  try {
    const text: string | undefined = JSON.stringify(value);
    if (text !== undefined) return text;
  } catch {
    // fall through to String()
  }
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}
