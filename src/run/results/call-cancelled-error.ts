/**
 * The reason of the error result a call gets when it is cancelled by id (`RunOptions.cancel`)
 * while the rest of the batch goes on. Like `InvalidArgumentsError`, it is deliberately not a
 * `ToolError`: that set of reasons stays closed. Its message tells the model whether the tool
 * ran at all, and whether an attempt was running or the call was waiting to retry, so it does
 * not assume an effect that may not have happened.
 *
 * @example
 * new CallCancelledError("search", "c1", false, "stopped by the user").message;
 * // 'tool search was cancelled before it started (stopped by the user): it did not run'
 */
export class CallCancelledError extends Error {
  override readonly name = "CallCancelledError";
  readonly toolName: string;
  readonly toolCallId: string;
  /** Whether the call had started (its handler may have done part of its work). */
  readonly started: boolean;
  /** What the canceller said, if anything. (Not `reason`: that name means a `ToolError` reason elsewhere.) */
  readonly cancelReason: string | undefined;
  /**
   * Set when the call was cancelled while it waited to retry: the attempt that had failed. No
   * attempt was running then.
   */
  readonly retryAfterAttempt: number | undefined;

  constructor(toolName: string, toolCallId: string, started: boolean, reason?: string, retryAfterAttempt?: number) {
    const why = reason === undefined || reason === "" ? "" : ` (${reason})`;
    super(
      retryAfterAttempt !== undefined
        ? `tool ${toolName} was cancelled while it waited to retry after attempt ${retryAfterAttempt} failed${why}: no attempt was running, and part of its work may have happened in the failed ${retryAfterAttempt === 1 ? "attempt" : "attempts"}`
        : started
          ? `tool ${toolName} was cancelled while it ran${why}: it stopped before it finished, and part of its work may have happened`
          : `tool ${toolName} was cancelled before it started${why}: it did not run`,
    );
    this.toolName = toolName;
    this.toolCallId = toolCallId;
    this.started = started;
    this.cancelReason = reason;
    this.retryAfterAttempt = retryAfterAttempt;
  }
}
