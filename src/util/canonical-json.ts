/**
 * JSON with object keys sorted at every depth, so two equal argument objects give the same text
 * whatever order their keys were written in: what an approval token is computed over.
 *
 * @throws {TypeError} for a value JSON cannot represent (a cycle, a bigint).
 *
 * @example
 * canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: undefined } });
 * // '{"a":{"d":[2,{"e":0,"f":1}]},"b":1}'
 */
export function canonicalJson(value: unknown): string {
  // JSON's own rules first (toJSON, undefined and functions dropped), then keys in order.
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError(`Expected a value JSON can represent, got ${typeof value}`);
  return JSON.stringify(sorted(JSON.parse(text)));
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = sorted((value as Record<string, unknown>)[key]);
  return out;
}
