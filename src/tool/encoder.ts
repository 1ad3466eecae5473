import { isError, messageOf, read, safeJson, UNREADABLE, withoutFrames } from "../util/safe.js";
import { isToolError, type ToolError } from "./tool-error.js";

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
 * instead of becoming a silent `undefined`, as does a value nested deeper than
 * 512 levels. Errors become `{"error": "<text>"}`. No content
 * carries a stack trace: stack frames are cut out, however deep they sit.
 *
 * @example
 * jsonEncoder.encode({ tempC: 21 });      // '{"tempC":21}'
 * jsonEncoder.encode("sunny");            // 'sunny'
 * jsonEncoder.encodeError("no such city"); // '{"error":"no such city"}'
 */
export const jsonEncoder: ToolResultEncoder = /* @__PURE__ */ Object.freeze({
  encode(value: unknown): string {
    if (typeof value === "string") return value.includes(FRAME_MARK) ? withoutFrames(value) : value;
    const text: string | undefined = JSON.stringify(value);
    if (text === undefined) {
      throw new TypeError(`Cannot encode ${typeof value} as JSON`);
    }
    // Nesting that deep needs more than two characters a level: shorter text is never checked.
    if (text.length > 2 * MAX_NESTING && nestingOf(text) > MAX_NESTING) {
      throw new TypeError(`Cannot encode a value nested deeper than ${MAX_NESTING} levels`);
    }
    // One scan of the text keeps the common case at native speed; only a value that carries a
    // V8 trace is rendered a second time, without it. Text that holds no string (a number, a
    // boolean, null: it starts with none of `"`, `[`, `{`) or is shorter than the mark cannot
    // carry one, and skips the scan (a builtin call: ~200 instructions even on a short text).
    if (text.length >= FRAME_MARK.length && mayHoldText(text.charCodeAt(0)) && text.includes(FRAME_MARK)) {
      return JSON.stringify(value, withoutTraces) as string;
    }
    return text;
  },
  encodeError(reason: unknown): string {
    // The same text as JSON.stringify({ error }), a third cheaper: no object to build and walk.
    return `{"error":${JSON.stringify(errorText(reason))}}`;
  },
});

/**
 * How deeply a result may nest, in objects and arrays: as deep as a worker thread or a BullMQ job
 * carries one (`toolrx/node`'s codec bounds its recursion there), so that a result is refused
 * alike wherever its handler ran. Nothing a model reads nests this deep.
 */
export const MAX_NESTING = 512;

/** The deepest nesting of objects and arrays in JSON `text`, brackets inside strings aside. */
function nestingOf(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: skip to its closing quote, past escaped characters.
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > deepest) deepest = depth;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/** What every V8 stack frame line contains. */
const FRAME_MARK = "    at ";

/** Whether JSON text starting with `first` can hold a string: a string, an array or an object. */
function mayHoldText(first: number): boolean {
  return first === 0x22 || first === 0x5b || first === 0x7b;
}

/** A JSON replacer: a `stack` that is a trace is left out, frames are cut from other strings. */
function withoutTraces(this: unknown, key: string, value: unknown): unknown {
  if (typeof value !== "string") return value;
  const text = withoutFrames(value);
  return key === "stack" && text !== value ? undefined : text;
}

/**
 * The text of an error term: what happened and why, in one line a model can read. For a
 * `ToolError` that is its reason, its message and its cause. It never throws, whatever the term
 * (throwing getters, revoked Proxies, cycles), and never carries a stack.
 *
 * @example
 * errorText(new ToolError("timeout", { toolName: "weather" })); // "tool error (weather): timeout"
 * errorText({ code: 42 });                                       // '{"code":42}'
 */
export function errorText(reason: unknown): string {
  if (typeof reason === "string") return withoutFrames(reason);
  if (isToolError(reason)) {
    const head = headOf(reason);
    const cause = read(reason, "cause");
    if (cause === undefined) return head;
    return `${head}: ${cause === UNREADABLE ? "[unreadable]" : causeText(cause)}`;
  }
  return causeText(reason);
}

/**
 * A ToolError's reason and message in one phrase, the reason said once. Its fields may have been
 * replaced after construction (a getter that throws, a message that is not a string): the text
 * then says what can still be read rather than throwing or ending in a dangling colon.
 */
function headOf(error: ToolError): string {
  const code = read(error, "reason");
  const message = messageOf(error);
  if (typeof code !== "string") return message ?? "tool error";
  if (!message) return code;
  return message.includes(code) ? message : `${code}: ${message}`;
}

function causeText(cause: unknown): string {
  return (isError(cause) ? messageOf(cause) : undefined) ?? safeJson(cause);
}
