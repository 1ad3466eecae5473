import { isToolError } from "../index.js";
import { BUILTIN_ERRORS, ERROR_FIELDS, hasOwn, MAX_DEPTH, TAG, TOOL_ERROR_FIELDS, where, type Wire } from "./wire.js";

/**
 * How strictly a value is encoded. `exact`: a result's data (`ok` value, `halt` result,
 * `ask_user` opts) must mean on the other side what the default JSON encoder would have written
 * here, so what JSON cannot hold is a problem. `lenient`: an error's data is only ever rendered
 * for a model or a log, so what cannot cross is replaced by a short description.
 */
type Mode = "exact" | "lenient";

/** Thrown inside the encoder to stop at the first problem; never escapes the codec. */
export class Unencodable {
  constructor(readonly problem: string) {}
}

function isError(value: object): value is Error {
  try {
    return value instanceof Error;
  } catch {
    return false;
  }
}

/**
 * Encode `value` to {@link Wire}; in `exact` mode, throws {@link Unencodable} at the first problem.
 * `key` is the property name or index `value` is under, which a `toJSON` is given as JSON gives it.
 */
export function encodeValue(value: unknown, mode: Mode, path = "", depth = 0, seen: object[] = [], key = ""): Wire | undefined {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      // As JSON.stringify writes them: NaN and Infinity as null, -0 as 0 (`=== 0` holds for both zeros).
      if (!Number.isFinite(value)) return null;
      return value === 0 ? 0 : value;
    case "bigint":
      if (mode === "exact") throw new Unencodable(`${where(path)} is a bigint, which JSON cannot hold`);
      return { [TAG]: "bigint", value: String(value) };
    // A result's value itself (depth 0) crosses as what it is, so the receiving side's after-hooks
    // and encoder judge it as this side's would (a hook wrapping `undefined` gets `{}` on both).
    // Nested in data, these are left out of their object, as JSON.stringify does.
    case "undefined":
      return mode === "lenient" || depth === 0 ? { [TAG]: "undefined" } : undefined;
    case "symbol":
    case "function":
      // Tagged, so that an error's text renders them on the other side as it does here.
      if (mode === "lenient" || depth === 0) return typeof value === "symbol" ? symbolTag(value) : functionTag(value as () => unknown);
      return undefined;
  }
  if (value === null) return null;
  const object = value as object;
  if (seen.includes(object)) {
    if (mode === "exact") throw new Unencodable(`${where(path)} refers back to an enclosing object (a cycle)`);
    return "[Circular]";
  }
  if (depth >= MAX_DEPTH[mode]) {
    if (mode === "exact") throw new Unencodable(`${where(path)} is nested deeper than ${MAX_DEPTH.exact} levels`);
    return "[...]";
  }
  seen.push(object);
  try {
    return isError(object) ? encodeError(object, path, depth, seen) : encodeObject(object, mode, path, depth, seen, key);
  } catch (thrown) {
    if (thrown instanceof Unencodable) throw thrown;
    if (mode === "exact") throw new Unencodable(`reading ${where(path)} threw`);
    return "[unreadable]";
  } finally {
    seen.pop();
  }
}

function encodeObject(object: object, mode: Mode, path: string, depth: number, seen: object[], key: string, viaToJSON = true): Wire | undefined {
  const toJSON = viaToJSON ? (object as { toJSON?: unknown }).toJSON : undefined;
  if (typeof toJSON === "function") {
    // As JSON.stringify does: a Date becomes its ISO string, a class its chosen form.
    const json: unknown = toJSON.call(object, key);
    // A result's value whose toJSON gives text (a Date) is written quoted, where text itself is not.
    if (depth === 0 && mode === "exact" && typeof json === "string") return { [TAG]: "json", value: json };
    // An object toJSON gives (itself included) is written as it is, without calling its toJSON again.
    return typeof json === "object" && json !== null && !isError(json)
      ? encodeObject(json, mode, path, depth, seen, key, false)
      : encodeValue(json, mode, path, depth, seen, key);
  }
  if (Array.isArray(object)) {
    return Array.from(object, (item: unknown, i) => encodeValue(item, mode, `${path}[${i}]`, depth + 1, seen, String(i)) ?? null);
  }
  const entries: [string, Wire][] = [];
  for (const name of Object.keys(object)) {
    let item: unknown;
    try {
      item = (object as Record<string, unknown>)[name];
    } catch {
      if (mode === "exact") throw new Unencodable(`reading ${where(`${path}.${name}`)} threw`);
      item = "[unreadable]";
    }
    const wire = encodeValue(item, mode, `${path}.${name}`, depth + 1, seen, name);
    if (wire !== undefined) entries.push([name, wire]);
  }
  // fromEntries defines keys, so "__proto__" stays an own key instead of setting a prototype.
  const copy = Object.fromEntries(entries) as Record<string, Wire>;
  return hasOwn(copy, TAG) ? { [TAG]: "object", entries: copy } : copy;
}

/**
 * An Error as data: its name, message, own enumerable data and cause chain (all `lenient`), and
 * for a `ToolError` its reason, names and metadata. Never its stack: a worker's file paths and
 * frames are not data a model or a log should receive.
 */
function encodeError(error: Error, path: string, depth: number, seen: object[]): Wire {
  // Lenient encoding always gives data (what JSON cannot hold is tagged or described), never undefined.
  const field = (key: string): Wire => encodeValue(read(error, key), "lenient", `${path}.${key}`, depth + 1, seen, key) as Wire;
  const text = (key: string): string => {
    const v = read(error, key);
    return typeof v === "string" ? v : "";
  };
  const wire: Record<string, Wire> = { [TAG]: "error", name: text("name") || "Error", message: text("message") };
  if (isToolError(error)) {
    wire[TAG] = "tool_error";
    wire.reason = error.reason;
    for (const key of ["toolName", "toolCallId"]) if (typeof read(error, key) === "string") wire[key] = text(key);
    const metadata = field("metadata");
    // The other side rebuilds a ToolError, whose metadata is a record: metadata that would not come
    // back as one (null or a list set by hand, a cycle back to the error, a getter that threw)
    // crosses inside one, so the error keeps its class and reason and its metadata stays readable.
    wire.metadata = comesBackAsRecord(metadata) ? metadata : { value: metadata };
  } else {
    // A built-in class under another name (a RangeError renamed) comes back as that class.
    const builtin = builtinOf(error);
    if (builtin !== undefined && builtin !== wire.name) wire.builtin = builtin;
  }
  // Own data beside the fields above, a ToolError's extra properties included.
  const skip = isToolError(error) ? TOOL_ERROR_FIELDS : ERROR_FIELDS;
  const data: [string, Wire][] = [];
  for (const key of ownKeys(error)) if (!skip.has(key)) data.push([key, field(key)]);
  if (data.length > 0) wire.data = Object.fromEntries(data) as Record<string, Wire>;
  if (safeHasOwn(error, "cause")) wire.cause = field("cause");
  return wire;
}

/** The built-in Error class `error` is an instance of, other than Error itself. */
function builtinOf(error: Error): string | undefined {
  for (const name of Object.keys(BUILTIN_ERRORS)) {
    try {
      if (name !== "Error" && error instanceof (BUILTIN_ERRORS[name] as ErrorConstructor)) return name;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** Whether {@link decodeValue} makes an object of `wire` that is not a list: a record, an escaped one, an Error. */
function comesBackAsRecord(wire: Wire): boolean {
  if (typeof wire !== "object" || wire === null || Array.isArray(wire)) return false;
  const tag = (wire as Record<string, Wire>)[TAG];
  return tag === undefined || tag === "object" || tag === "error" || tag === "tool_error";
}

function read(object: object, key: string): unknown {
  try {
    return (object as Record<string, unknown>)[key];
  } catch {
    return "[unreadable]";
  }
}

function ownKeys(object: object): string[] {
  try {
    return Object.keys(object);
  } catch {
    return [];
  }
}

function safeHasOwn(object: object, key: string): boolean {
  try {
    return hasOwn(object, key);
  } catch {
    return false;
  }
}

function functionTag(fn: () => unknown): Wire {
  let name: unknown;
  try {
    name = fn.name;
  } catch {
    // A getter that throws: a function without a name.
  }
  return typeof name === "string" && name !== "" ? { [TAG]: "function", name } : { [TAG]: "function" };
}

function symbolTag(symbol: symbol): Wire {
  return symbol.description === undefined ? { [TAG]: "symbol" } : { [TAG]: "symbol", description: symbol.description };
}
