import { error, ToolError, type ErrorResult } from "../index.js";

/**
 * What a remote call's answer says when no handler result came back: `handler_exit`, with
 * `metadata.remoteState` telling the host what became of the handler, since only the host can
 * decide whether an effect that may have happened needs checking.
 *
 * - `not_started`: the job was removed (or cancelled) before any worker ran it.
 * - `failed`: the worker failed the job, or died mid-call (its heartbeat or its lock lapsed): the
 *   handler ran once at most, and its work may have happened.
 * - `aborted`: the handler started, and was aborted on its worker (a cancel or the job's deadline).
 * - `unknown`: Redis became unreachable, or the result could not be read; the handler may be running or done.
 */
export type RemoteState = "not_started" | "failed" | "aborted" | "unknown";

/** A `handler_exit` answer for a call whose remote handler gave no result. */
export function remoteExit(
  remoteState: RemoteState,
  detail: string,
  at: { toolName: string; toolCallId: string; jobId: string },
  cause?: unknown,
): ErrorResult<ToolError> {
  return error(
    new ToolError("handler_exit", {
      message: `tool error (${at.toolName}): handler_exit: ${detail}`,
      toolName: at.toolName,
      toolCallId: at.toolCallId,
      metadata: { remoteState, jobId: at.jobId },
      ...(cause === undefined ? {} : { cause }),
    }),
  );
}
