/** Reasons an {@link EngineError} may carry. */
export type EngineErrorReason = "unknown_tool";

/**
 * Misuse of the runner that fails a whole batch before any tool runs: today, a call that names
 * a tool the batch does not have.
 *
 * @example
 * const e = new EngineError("unknown_tool", { toolName: "wether" });
 * e.message;  // "tool wether not in tools"
 * e.metadata; // { toolName: "wether" }
 */
export class EngineError extends Error {
  override readonly name = "EngineError";
  readonly reason: EngineErrorReason;
  readonly metadata: Record<string, unknown>;

  constructor(reason: EngineErrorReason, metadata: { toolName: string } & Record<string, unknown>, message?: string) {
    super(message ?? `tool ${metadata.toolName} not in tools`);
    this.reason = reason;
    this.metadata = metadata;
  }
}
