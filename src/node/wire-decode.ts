import { ToolError, type ToolErrorReason } from "../index.js";
import { BUILTIN_ERRORS, hasOwn, MAX_DEPTH, REASONS, TAG, TOOL_ERROR_FIELDS, where } from "./wire.js";

/** What a value whose toJSON gave `text` (a Date) comes back as: JSON writes it as the same quoted text. */
function jsonStandIn(text: string): object {
  return Object.freeze(Object.defineProperty({}, "toJSON", { value: () => text }));
}

/** What a function that crossed as data comes back as: one of the same name, which cannot be called. */
function functionStandIn(name: unknown): () => never {
  const label = typeof name === "string" ? name : "";
  const standIn = (): never => {
    throw new TypeError(`the function${label === "" ? "" : ` ${label}`} crossed a thread or a process as data and cannot be called`);
  };
  Object.defineProperty(standIn, "name", { value: label });
  return standIn;
}

/** Thrown inside the decoder at the first malformed tag; never escapes the codec. */
export class Undecodable {
  constructor(readonly problem: string) {}
}

/** The value a {@link Wire} stands for: tags become Errors, bigints, `undefined`, symbols, and stand-ins of functions and of values whose toJSON gave text. */
export function decodeValue(wire: unknown, path = "", depth = 0): unknown {
  if (typeof wire !== "object" || wire === null) {
    if (typeof wire === "string" || typeof wire === "boolean" || wire === null) return wire;
    if (Number.isFinite(wire)) return wire; // a number, neither NaN nor infinite (no coercion)
    throw new Undecodable(`${where(path)} is not JSON data`);
  }
  if (depth >= MAX_DEPTH.exact) throw new Undecodable(`${where(path)} is nested deeper than ${MAX_DEPTH.exact} levels`);
  if (Array.isArray(wire)) return wire.map((item: unknown, i) => decodeValue(item, `${path}[${i}]`, depth + 1));
  const object = wire as Record<string, unknown>;
  if (!hasOwn(object, TAG)) return decodeEntries(object, path, depth);
  const tag = object[TAG];
  switch (tag) {
    case "object":
      if (typeof object.entries !== "object" || object.entries === null) break;
      return decodeEntries(object.entries as Record<string, unknown>, path, depth);
    case "undefined":
      return undefined;
    case "bigint":
      if (typeof object.value !== "string" || !/^-?\d+$/.test(object.value)) break;
      return BigInt(object.value);
    case "function":
      return functionStandIn(object.name);
    case "json":
      if (typeof object.value !== "string") break;
      return jsonStandIn(object.value);
    case "symbol":
      return Symbol(typeof object.description === "string" ? object.description : undefined);
    case "error":
    case "tool_error":
      return decodeError(object, path, depth);
  }
  throw new Undecodable(`${where(path)} has a malformed \`${TAG}\` tag`);
}

function decodeEntries(object: Record<string, unknown>, path: string, depth: number): Record<string, unknown> {
  return Object.fromEntries(Object.keys(object).map((key) => [key, decodeValue(object[key], `${path}.${key}`, depth + 1)]));
}

function decodeError(wire: Record<string, unknown>, path: string, depth: number): Error {
  const { name, message } = wire;
  if (typeof name !== "string" || typeof message !== "string") throw new Undecodable(`${where(path)} is a malformed error`);
  const sub = (key: string): unknown => decodeValue(wire[key], `${path}.${key}`, depth + 1);
  let error: Error;
  if (wire[TAG] === "tool_error") {
    const { reason, toolName, toolCallId } = wire;
    const metadata = sub("metadata");
    if (!REASONS.has(reason as string) || typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) {
      throw new Undecodable(`${where(path)} is a malformed ToolError`);
    }
    error = new ToolError(reason as ToolErrorReason, {
      message,
      ...(typeof toolName === "string" && { toolName }),
      ...(typeof toolCallId === "string" && { toolCallId }),
      ...(hasOwn(wire, "cause") && { cause: sub("cause") }),
      metadata: metadata as Record<string, unknown>,
    });
  } else {
    const classNamed = (n: unknown): ErrorConstructor | undefined => (typeof n === "string" && hasOwn(BUILTIN_ERRORS, n) ? BUILTIN_ERRORS[n] : undefined);
    const Builtin = classNamed(wire.builtin) ?? classNamed(name) ?? Error;
    error = hasOwn(wire, "cause") ? new Builtin(message, { cause: sub("cause") }) : new Builtin(message);
    if (error.name !== name) Object.defineProperty(error, "name", { value: name, writable: true, configurable: true });
  }
  const data = wire.data;
  if (typeof data === "object" && data !== null && !Array.isArray(data)) {
    for (const key of Object.keys(data)) {
      // A ToolError's own fields are its constructor's: data never overrides its reason or names.
      if (wire[TAG] === "tool_error" && TOOL_ERROR_FIELDS.has(key)) continue;
      const value = decodeValue((data as Record<string, unknown>)[key], `${path}.data.${key}`, depth + 1);
      Object.defineProperty(error, key, { value, writable: true, enumerable: true, configurable: true });
    }
  }
  // The stack is this side's, which says nothing true about where the error came from.
  Object.defineProperty(error, "stack", { value: `${name}: ${message}`, writable: true, configurable: true });
  return error;
}
