/**
 * The one way the runner reads and describes values that came from user code. Any property
 * read may run a getter that throws, any object may be a revoked Proxy (even `Array.isArray`
 * and `instanceof` throw on those), and a `then` may throw: nothing here ever throws, and no
 * rendering carries a stack trace or a stack frame's file path.
 */

/** Returned by {@link read} when reading threw. */
export const UNREADABLE: unique symbol = /* @__PURE__ */ Symbol("toolrx.unreadable");

/** `value[key]`, or {@link UNREADABLE} when the read throws. */
export function read(value: object, key: PropertyKey): unknown {
  try {
    return (value as Record<PropertyKey, unknown>)[key];
  } catch {
    return UNREADABLE;
  }
}

/** Whether `value` is an `Error` (false for a revoked Proxy, whose prototype cannot be read). */
export function isError(value: unknown): value is Error {
  if (typeof value !== "object" || value === null) return false;
  try {
    return value instanceof Error;
  } catch {
    return false;
  }
}

/** `Array.isArray`, false instead of a throw for a revoked Proxy. */
export function isArray(value: unknown): value is unknown[] {
  try {
    return Array.isArray(value);
  } catch {
    return false;
  }
}

/** The thenable's `then` method, if `value` has one that can be read; never calls it. */
export function thenOf(value: unknown): ((this: unknown, ...args: unknown[]) => unknown) | undefined {
  if (value === null || (typeof value !== "object" && typeof value !== "function")) return undefined;
  let then: unknown;
  try {
    // A named read, not `read(value, "then")`: it runs once or twice per call, and a named
    // property access stays fast where a keyed one does not.
    then = (value as { then?: unknown }).then;
  } catch {
    return undefined;
  }
  return typeof then === "function" ? (then as (this: unknown, ...args: unknown[]) => unknown) : undefined;
}

/**
 * Follow a thenable to its outcome: `onValue` or `onError`, whichever it calls first, and
 * `onError` when its `then` throws. A hostile thenable that calls back twice or never is the
 * caller's to guard (a settled flag, a deadline).
 */
export function settle<T>(
  thenable: PromiseLike<unknown>,
  target: T,
  onValue: (this: T, value: unknown) => unknown,
  onError: (this: T, reason: unknown) => unknown,
): void {
  try {
    thenable.then(
      (value) => onValue.call(target, value),
      (reason: unknown) => onError.call(target, reason),
    );
  } catch (thrown) {
    onError.call(target, thrown);
  }
}

/** A short rendering of a bad value for error messages, e.g. `"sunny"`, `an array`, `a function (f)`. */
export function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value);
  if (typeof value === "function") {
    const name = read(value, "name");
    return typeof name === "string" && name !== "" ? `a function (${name})` : "a function";
  }
  if (value === null) return "null";
  if (typeof value === "object") return isArray(value) ? "an array" : "an object";
  if (typeof value === "bigint") return `${value}n`;
  return String(value);
}

/**
 * Lines of a stack trace: V8's `    at f (file:1:2)`, `    at new Promise (<anonymous>)` and
 * SpiderMonkey/JSC's `f@file:1:2`. A line must end like a frame, so "at least one city" stays.
 */
const FRAME = /^\s+at\s.*(?::\d+(?::\d+)?\)?|\((?:<anonymous>|native|index \d+)\))$|^[^\s@]*@\S+:\d+:\d+$/;

/**
 * `text` without stack frames: every line that is a frame is dropped, so a message that embeds
 * another error's stack keeps its words but loses the file paths.
 */
export function withoutFrames(text: string): string {
  if (!text.includes(" at ") && !text.includes("@")) return text;
  const lines = text.split("\n");
  const kept = lines.filter((line) => !FRAME.test(line));
  return kept.length === lines.length ? text : kept.join("\n").trimEnd();
}

/** How much of a value an error text renders: enough to act on, never megabytes. */
const LIMITS = { depth: 8, entries: 100, chars: 2_000, message: 10_000 } as const;

/**
 * The message of an Error-like value (an `Error`, or a plain object with a string `message`),
 * without frames; `undefined` when it has none or reading it throws.
 */
export function messageOf(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const message = read(value, "message");
  if (typeof message !== "string") return undefined;
  const text = withoutFrames(message);
  return text.length > LIMITS.message ? `${text.slice(0, LIMITS.message)}...` : text;
}

/**
 * A JSON rendering of any value that cannot throw and never carries a stack: `stack` keys are
 * left out, frames are cut from strings, Errors render as `{ name, message }`, cycles as
 * `"[Circular]"`, unreadable parts as `"[unreadable]"`, and what JSON cannot hold (`undefined`,
 * bigints, symbols, functions) as a short description instead of vanishing.
 */
export function safeJson(value: unknown): string {
  const copy = plain(value, 0, []);
  // What has no JSON form at the top ("undefined", "10n", "[unreadable]") is said as it is.
  if (typeof copy === "string" && typeof value !== "string") return copy;
  const text = JSON.stringify(copy);
  return text.length > LIMITS.chars * 4 ? `${text.slice(0, LIMITS.chars * 4)}...` : text;
}

/** A JSON-safe copy of `value`: only plain data, read once, each read guarded. */
function plain(value: unknown, depth: number, seen: object[]): unknown {
  switch (typeof value) {
    case "string":
      return clip(withoutFrames(value));
    case "number":
    case "boolean":
      return value;
    case "bigint":
      return describe(value);
    case "undefined":
    case "symbol":
    case "function":
      // Nested, JSON leaves these out; alone, they still say what they were.
      return depth === 0 ? describe(value) : undefined;
  }
  if (value === null) return null;
  const object = value as object;
  if (seen.includes(object)) return "[Circular]";
  if (depth >= LIMITS.depth) return "[...]";
  seen.push(object);
  try {
    return plainObject(object, depth, seen);
  } catch {
    return "[unreadable]";
  } finally {
    seen.pop();
  }
}

function plainObject(object: object, depth: number, seen: object[]): unknown {
  if (isError(object)) {
    const name = read(object, "name");
    const message = messageOf(object);
    return { name: typeof name === "string" ? name : "Error", message: message ?? "" };
  }
  const toJSON = read(object, "toJSON");
  if (typeof toJSON === "function") {
    const json: unknown = (toJSON as (this: object, key: string) => unknown).call(object, "");
    return json === object ? "[unreadable]" : plain(json, depth + 1, seen);
  }
  if (Array.isArray(object)) {
    const items = object.slice(0, LIMITS.entries).map((item: unknown) => plain(item, depth + 1, seen) ?? null);
    if (object.length > LIMITS.entries) items.push(`... ${object.length - LIMITS.entries} more`);
    return items;
  }
  const copy: Record<string, unknown> = {};
  const keys = Object.keys(object);
  for (const key of keys.slice(0, LIMITS.entries)) {
    if (key === "stack") continue;
    const item = read(object, key);
    copy[key] = item === UNREADABLE ? "[unreadable]" : plain(item, depth + 1, seen);
  }
  if (keys.length > LIMITS.entries) copy["..."] = `${keys.length - LIMITS.entries} more keys`;
  return copy;
}

function clip(text: string): string {
  return text.length > LIMITS.chars ? `${text.slice(0, LIMITS.chars)}...` : text;
}

/** A non-null, non-array object. */
export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !isArray(value);
}
