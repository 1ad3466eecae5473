import { error, ToolError, type HandlerResult } from "../index.js";
import { decodeResult, encodeResult, type WireResult } from "../node/index.js";

/**
 * A result as the job carries it, through the shared codec of `toolrx/node`: a `ToolError`
 * arrives as a `ToolError` with its reason, an error as the same class and message, an `ok`
 * result with its content parts. A result
 * that cannot cross (a bigint, a cycle) is answered `invalid_return` on the worker, as an
 * isolated handler's is.
 */
export function encodeJobResult(result: HandlerResult, toolName: string, toolCallId: string): WireResult {
  const encoded = encodeResult(result);
  if (encoded.ok) return encoded.value;
  // Worded as a worker thread's, with what could not cross in `metadata.crossing`: one answer whatever the executor.
  const refused = error(
    new ToolError("invalid_return", {
      toolName,
      toolCallId,
      message: `tool error (${toolName}): invalid_return: the result cannot leave the worker: ${encoded.problem}`,
      metadata: { crossing: encoded.problem },
    }),
  );
  return (encodeResult(refused) as { value: WireResult }).value;
}

/**
 * The result a worker sent.
 *
 * @throws {TypeError} when it is not one a worker of this protocol writes.
 */
export function decodeJobResult(wire: unknown): HandlerResult {
  const decoded = decodeResult(wire);
  if (!decoded.ok) throw new TypeError(decoded.problem);
  return decoded.value;
}
