import { TOOL_ERROR_REASONS } from "../index.js";

/**
 * The wire format both sides of a thread or a job queue agree on: JSON data, with tags for what
 * plain JSON cannot say. Encoding is wire-encode.ts, decoding wire-decode.ts.
 */

/** A value that survives `JSON.stringify` and `JSON.parse` unchanged: what the codec puts on the wire. */
export type Wire = null | boolean | number | string | readonly Wire[] | { readonly [key: string]: Wire };

/**
 * The key that marks what plain JSON cannot say (an Error, a bigint, `undefined`). A user object
 * that has this key itself is escaped, so no data is ever mistaken for a tag.
 */
export const TAG = "$toolrx";

/**
 * How deep a value may nest. `exact`: as deep as the default JSON encoder takes, and the depth
 * decoding accepts, so a hostile message cannot exhaust the receiving side's stack. `lenient`: an
 * error's data is whatever a handler threw (a library's error can hold its request, socket and
 * agent), walked without a global `seen`; a short bound keeps that walk small, and the model reads
 * only 8 levels of it anyway.
 */
export const MAX_DEPTH = { exact: 512, lenient: 64 } as const;

/** `Object.hasOwn`, short: the codec asks it of every object it meets. */
export const hasOwn = (o: object, key: string): boolean => Object.hasOwn(o, key);

/** An Error's own fields the wire carries by name; the rest of its own data crosses as `data`. */
export const ERROR_FIELDS: ReadonlySet<string> = new Set(["stack", "message", "name", "cause"]);
/** A `ToolError`'s: its constructor's fields, which its `data` never overrides. */
export const TOOL_ERROR_FIELDS: ReadonlySet<string> = new Set([...ERROR_FIELDS, "reason", "toolName", "toolCallId", "metadata"]);

/** The built-in Error classes an error crosses as: a `RangeError` comes back a `RangeError`. */
export const BUILTIN_ERRORS: Readonly<Record<string, ErrorConstructor>> = {
  Error,
  TypeError,
  RangeError,
  SyntaxError,
  ReferenceError,
  EvalError,
  URIError,
};

/** The reasons a `ToolError` may come back with. */
export const REASONS: ReadonlySet<string> = new Set(TOOL_ERROR_REASONS);

/** Where a problem is, for its message: `the value`, or the path in backticks. */
export function where(path: string): string {
  return path === "" ? "the value" : `\`${path.replace(/^\./, "")}\``;
}
