import { error } from "../../tool/results.js";
import { isToolError, ToolError } from "../../tool/tool-error.js";

/**
 * The final result of a call that ran under a retry plan: when its error term is a `ToolError`,
 * a copy whose `metadata.attempts` says how many attempts were made. A handler's own error
 * reason is passed on unchanged: it is the handler's value, not ours to rewrite.
 */
export function withAttempts(result: unknown, term: unknown, attempts: number): unknown {
  if (!isToolError(term)) return result;
  const options = {
    message: term.message,
    toolName: term.toolName,
    toolCallId: term.toolCallId,
    metadata: { ...term.metadata, attempts },
  };
  return error("cause" in term ? new ToolError(term.reason, { ...options, cause: term.cause }) : new ToolError(term.reason, options));
}
