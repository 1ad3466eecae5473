import { ERROR_OTHER } from "./semconv.js";
import { isToolError } from "../index.js";

/**
 * The `error.type` of an error term: a `ToolError`'s closed reason (`timeout`, `handler_raised`,
 * ...); another `Error`'s name (`InvalidArgumentsError`, `TypeError`, ...); `_OTHER` for a
 * handler's own non-Error reason such as `error("no station")`, whose text is not low-cardinality.
 */
export function errorTypeOf(reason: unknown): string {
  try {
    if (isToolError(reason)) return reason.reason;
    if (reason instanceof Error && typeof reason.name === "string" && reason.name !== "") return reason.name;
  } catch {
    // A getter that throws: the error has no name we can read.
  }
  return ERROR_OTHER;
}

/**
 * A short text for the span status: an `Error`'s message; a handler's own text only when content
 * is recorded (it may hold anything). Truncated to `max` characters, `max` 0 meaning none.
 */
export function errorMessageOf(reason: unknown, maxContent: number): string | undefined {
  try {
    if (reason instanceof Error) return typeof reason.message === "string" ? truncate(reason.message, Math.max(maxContent, 256)) : undefined;
  } catch {
    return undefined;
  }
  // No reason (a span ended by unsubscribing) has no message, rather than the text "undefined".
  if (maxContent > 0 && reason !== undefined) return contentText(reason, maxContent);
  return undefined;
}

/** `value` as text for an attribute: strings raw, anything else as JSON; cut to `max` characters. */
export function contentText(value: unknown, max: number): string {
  let text: string;
  if (typeof value === "string") {
    text = value;
  } else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = "[unserializable]";
    }
  }
  return truncate(text, max);
}

/**
 * `text` in at most `max` characters, the marker included: `max` is what a backend's attribute
 * limit is set from. The marker says how many characters were cut; where it does not fit, a
 * bare `…` does.
 */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  // The marker's length depends on the count it shows, which depends on the marker's length:
  // two rounds settle it, since one more digit can only cut one more character.
  let kept = max;
  for (let round = 0; round < 2; round++) kept = max - marker(text.length - kept).length;
  if (kept < 1) return `${text.slice(0, max - 1)}…`;
  return `${text.slice(0, kept)}${marker(text.length - kept)}`;
}

function marker(cut: number): string {
  return `… (${cut} more characters)`;
}
