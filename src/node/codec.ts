import { isHandlerResult, type HandlerResult, type Ok } from "../index.js";
import { decodeValue, Undecodable } from "./wire-decode.js";
import { encodeValue, Unencodable } from "./wire-encode.js";
import { NOT_PLAIN, plainCopy } from "./wire-plain.js";
import type { Wire } from "./wire.js";

export type { Wire } from "./wire.js";

/** A {@link HandlerResult} as JSON data: what a worker thread or a job queue carries. */
export type WireResult =
  | { readonly type: "ok"; readonly value: Wire; readonly parts?: Wire }
  | { readonly type: "error"; readonly reason: Wire }
  | { readonly type: "ask_user"; readonly question: string; readonly opts: Wire }
  | { readonly type: "halt"; readonly reason: string; readonly result: Wire };

/**
 * What the codec made of a value: `ok: true` with it, or `ok: false` with a `problem` that says
 * what could not cross and where, for the caller to answer `invalid_return` with.
 */
export type CodecOutcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: string };

/**
 * Encode a handler's result for another thread or process, as JSON data that survives
 * `JSON.stringify` and `JSON.parse` unchanged.
 *
 * Data a result carries for the model (an `ok` value, a `halt` result, `ask_user` opts) crosses
 * as the default JSON encoder would write it (`toJSON` applied, `NaN` as `null`, `undefined`
 * properties left out); what that encoder would reject (a bigint, a cycle, a getter that throws,
 * nesting deeper than 512) is a problem. The value itself crosses as what it is when it is
 * `undefined`, a function or a symbol, and as a stand-in the encoder writes as the same quoted
 * text when its `toJSON` gives text (a `Date`): the receiving side's hooks and encoder then
 * answer as this side's would. An `ok` result's content `parts` cross
 * the same way, as they are: the receiving runner checks them as it checks an in-process result's,
 * so a bad part is the same `invalid_return` on either side. An `error` reason crosses as far as
 * it can: an `Error` keeps its name, message, own enumerable data and cause chain, a `ToolError`
 * its reason, message, `toolName`, `toolCallId` and metadata; parts that cannot cross become a
 * short description (`"[Circular]"`, `"[unreadable]"`). Stacks never cross.
 *
 * @example
 * encodeResult(ok({ tempC: 21 })); // { ok: true, value: { type: "ok", value: { tempC: 21 } } }
 * encodeResult(ok(10n)).ok;         // false: "the value is a bigint, which JSON cannot hold"
 */
export function encodeResult(result: HandlerResult): CodecOutcome<WireResult> {
  if (!isHandlerResult(result)) return { ok: false, problem: "the value is not a handler result" };
  try {
    switch (result.type) {
      case "ok": {
        const value = exact(result.value, "value");
        const parts: unknown = result.parts;
        if (parts === undefined) return { ok: true, value: { type: "ok", value } };
        return { ok: true, value: { type: "ok", value, parts: exact(parts, "parts", "parts") } };
      }
      case "error":
        return { ok: true, value: { type: "error", reason: encodeThrown(result.reason) } };
      case "ask_user":
        return { ok: true, value: { type: "ask_user", question: result.question, opts: exact(result.opts ?? {}, "opts") } };
      case "halt":
        return { ok: true, value: { type: "halt", reason: result.reason, result: exact(result.result, "result") } };
    }
  } catch (thrown) {
    if (thrown instanceof Unencodable) return { ok: false, problem: thrown.problem };
    // A getter on the result itself threw between the shape check and here.
    return { ok: false, problem: "reading the result threw" };
  }
}

/** `value` encoded exactly: plain JSON data by the fast copy, anything else by the full encoder. */
function exact(value: unknown, field: string, path = ""): Wire {
  const plain = plainCopy(value);
  if (plain !== NOT_PLAIN) return plain;
  try {
    return encodeValue(value, "exact", path) as Wire;
  } catch (thrown) {
    if (thrown instanceof Unencodable) throw new Unencodable(thrown.problem.replace("the value", `the ${field}`));
    throw thrown;
  }
}

/**
 * Decode what {@link encodeResult} produced, after any number of JSON round trips. Errors come
 * back as Errors (`ToolError` as `ToolError`, built-in names as their classes), with a stack of
 * their first line only.
 *
 * @example
 * decodeResult(JSON.parse(JSON.stringify(encodeResult(error(new Error("x"))).value))); // { ok: true, value: { type: "error", reason: Error("x") } }
 * decodeResult({ type: "nope" }).ok; // false
 */
export function decodeResult(wire: unknown): CodecOutcome<HandlerResult> {
  if (typeof wire !== "object" || wire === null) return { ok: false, problem: "the wire result is not an object" };
  const w = wire as Record<string, unknown>;
  try {
    switch (w.type) {
      case "ok": {
        const value = data(w.value);
        if (w.parts === undefined) return { ok: true, value: { type: "ok", value } };
        // Checked by the runner that receives them, as it checks a result built by hand in-process.
        return { ok: true, value: { type: "ok", value, parts: data(w.parts, "parts") as Ok["parts"] } };
      }
      case "error":
        return { ok: true, value: { type: "error", reason: decodeValue(w.reason) } };
      case "ask_user": {
        const opts = data(w.opts);
        if (typeof w.question !== "string" || typeof opts !== "object" || opts === null) break;
        return { ok: true, value: { type: "ask_user", question: w.question, opts } };
      }
      case "halt":
        if (typeof w.reason !== "string") break;
        return { ok: true, value: { type: "halt", reason: w.reason, result: data(w.result) } };
    }
  } catch (thrown) {
    if (thrown instanceof Undecodable) return { ok: false, problem: thrown.problem };
    throw thrown;
  }
  return { ok: false, problem: "the wire result is not one of the four result shapes" };
}

/** A result's data decoded: plain JSON data by the fast copy, anything else (tags) by the full decoder. */
function data(wire: unknown, path = ""): unknown {
  const plain = plainCopy(wire);
  return plain === NOT_PLAIN ? decodeValue(wire, path) : plain;
}

/**
 * Encode anything thrown (or an `error` result's reason) as JSON data. Never fails: what cannot
 * cross becomes a short description, as in {@link encodeResult}'s `error` reasons.
 *
 * @example
 * encodeThrown(new TypeError("bad")); // { $toolrx: "error", name: "TypeError", message: "bad" }
 * encodeThrown(undefined);            // { $toolrx: "undefined" }
 */
export function encodeThrown(value: unknown): Wire {
  try {
    return encodeValue(value, "lenient") as Wire;
  } catch {
    return "[unreadable]";
  }
}

/**
 * Decode what {@link encodeThrown} produced. Never fails: a malformed tag decodes as the plain
 * data it is.
 *
 * @example
 * decodeThrown({ $toolrx: "error", name: "TypeError", message: "bad" }); // TypeError("bad")
 */
export function decodeThrown(wire: unknown): unknown {
  try {
    return decodeValue(wire);
  } catch {
    return wire;
  }
}
