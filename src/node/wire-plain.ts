import { MAX_DEPTH, TAG, type Wire } from "./wire.js";

/** What {@link plainCopy} answers for a value that is not plain JSON data: the full encoder or decoder takes it. */
export const NOT_PLAIN: unique symbol = Symbol("not plain");

/** Thrown inside {@link plainCopy} to leave at the first value it does not take; never escapes it. */
class Bail {}
const BAIL = new Bail();
const ARRAY_ITERATOR = Array.prototype[Symbol.iterator];

/**
 * A copy of `value` when it is plain JSON data, the common result of a handler: strings, finite
 * numbers (-0 written as 0), booleans, `null`, and arrays and plain objects of them, with no `toJSON`, no tag key, no
 * hole and nesting under 512 levels. The copy is exactly what the full
 * encoder ({@link encodeValue}) and decoder ({@link decodeValue}) give for such data, built
 * without their paths, entry lists and checks per value (about a quarter of their cost); for
 * anything else, or anything that throws, {@link NOT_PLAIN}, and the caller runs the full one,
 * which says what and where the problem is. A getter read here is read again then, as the full
 * encoder reads it: only for a value that was not plain data.
 *
 * @example
 * plainCopy({ a: [1, "x", null] }); // { a: [1, "x", null] }, a copy
 * plainCopy({ at: new Date(0) });   // NOT_PLAIN: the full encoder applies its toJSON
 */
export function plainCopy(value: unknown): Wire | typeof NOT_PLAIN {
  try {
    return copy(value, 0);
  } catch {
    return NOT_PLAIN;
  }
}

function copy(value: unknown, depth: number): Wire {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      if (Number.isFinite(value)) return value === 0 ? 0 : value; // -0 as 0, as JSON writes it and the encoder does
      throw BAIL; // the encoder writes it as null, the decoder refuses it
    case "object":
      break;
    default:
      throw BAIL;
  }
  if (value === null) return null;
  if (depth >= MAX_DEPTH.exact) throw BAIL;
  const proto: unknown = Object.getPrototypeOf(value);
  if ((value as { toJSON?: unknown }).toJSON !== undefined) throw BAIL;
  if (proto === Array.prototype) {
    const list = value as unknown[];
    // The full encoder reads a list through its iterator (Array.from): an own one may differ.
    if (list[Symbol.iterator] !== ARRAY_ITERATOR) throw BAIL;
    const out: Wire[] = new Array(list.length);
    for (let i = 0; i < list.length; i++) out[i] = copy(list[i], depth + 1);
    return out;
  }
  if (proto !== Object.prototype && proto !== null) throw BAIL;
  const out: Record<string, Wire> = {};
  for (const key of Object.keys(value)) {
    if (key === TAG) throw BAIL; // escaped by the encoder, read as a tag by the decoder
    const item = copy((value as Record<string, unknown>)[key], depth + 1);
    // Defined, not assigned: assigning "__proto__" would set the copy's prototype.
    if (key === "__proto__") Object.defineProperty(out, key, { value: item, writable: true, enumerable: true, configurable: true });
    else out[key] = item;
  }
  return out;
}
