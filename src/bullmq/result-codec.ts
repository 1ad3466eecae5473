import { checkParts, error, ToolError, type HandlerResult } from "../index.js";
import { decodeResult, encodeResult } from "../node/index.js";

/**
 * A result as the job carries it, through the shared codec of `toolrx/node`: a `ToolError`
 * arrives as a `ToolError` with its reason, an error as the same class and message, an `ok`
 * result with its content parts. A result
 * that cannot cross (a bigint, a cycle) is answered `invalid_return` on the worker, as an
 * isolated handler's is.
 */
export function encodeJobResult(result: HandlerResult, toolName: string, toolCallId: string): unknown {
  const encoded = encodeResult(result);
  if (encoded.ok) return withParts(encoded.value, result);
  const refused = error(new ToolError("invalid_return", { toolName, toolCallId, message: `tool error (${toolName}): invalid_return: ${encoded.problem}` }));
  return (encodeResult(refused) as { value: unknown }).value;
}

/**
 * The result a worker sent.
 *
 * @throws {TypeError} when it is not one a worker of this protocol writes.
 */
export function decodeJobResult(wire: unknown): HandlerResult {
  const decoded = decodeResult(wire);
  if (!decoded.ok) throw new TypeError(decoded.problem);
  const result = decoded.value;
  const parts = (wire as { parts?: unknown }).parts;
  if (result.type !== "ok" || parts === undefined || result.parts !== undefined) return result;
  // Checked as `ok` checks a handler's: a worker's parts are no more trusted than a handler's.
  return { type: "ok", value: result.value, parts: checkParts(parts, "the worker's result") };
}

/**
 * The wire result with an `ok` result's content parts beside it, when the shared codec left them
 * out: a tool's image must reach the model from a worker as it does in-process. Parts are
 * checked data of strings, so they cross JSON as they are.
 */
function withParts(wire: object, result: HandlerResult): unknown {
  if (result.type !== "ok" || result.parts === undefined || "parts" in wire) return wire;
  return { ...wire, parts: result.parts };
}
