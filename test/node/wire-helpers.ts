import type { HandlerResult } from "../../src/index.js";
import { decodeResult, decodeThrown, encodeResult, encodeThrown } from "../../src/node/index.js";

// What crosses a thread or a job queue, value by value (src/node/wire-encode.ts, wire-decode.ts),
// for the wire tests: a value taken through JSON, encoded, refused, nested, or thrown across.

/** Through JSON and back, as a job queue carries it. */
export const overJson = (wire: unknown): unknown => JSON.parse(JSON.stringify(wire));

/** A result's wire form; throws where it cannot cross. */
export function encoded(result: HandlerResult): unknown {
  const out = encodeResult(result);
  if (!out.ok) throw new Error(`not encodable: ${out.problem}`);
  return out.value;
}

/** Why a result cannot cross; throws where it can. */
export function problemOf(result: unknown): string {
  const out = encodeResult(result as HandlerResult);
  if (out.ok) throw new Error("encodable");
  return out.problem;
}

/** `leaf` inside `levels` one-element arrays. */
export const nested = (levels: number, leaf: unknown = 0): unknown => {
  let value = leaf;
  for (let i = 0; i < levels; i++) value = [value];
  return value;
};

/** An error thrown across: what the other side holds. */
export const across = (value: unknown): unknown => decodeThrown(overJson(encodeThrown(value)));

/** A result encoded, taken through JSON and decoded: what the other side's handler result is. */
export function roundTrip(result: HandlerResult): HandlerResult {
  const encoded = encodeResult(result);
  if (!encoded.ok) throw new Error(`not encodable: ${encoded.problem}`);
  const decoded = decodeResult(overJson(encoded.value));
  if (!decoded.ok) throw new Error(`not decodable: ${decoded.problem}`);
  return decoded.value;
}
