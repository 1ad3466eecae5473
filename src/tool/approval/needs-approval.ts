import type { Message } from "../message.js";
import type { ToolCall } from "../tool-call.js";

/** What a tool's `needsApproval` function sees besides the arguments. */
export interface ApprovalContext {
  /** The exact call the model made. */
  readonly toolCall: ToolCall;
  /** The conversation up to the turn that made the call. */
  readonly messages: readonly Message[];
  readonly context: unknown;
  readonly sessionId: string | undefined;
  readonly requestId: string | undefined;
  /** Aborts when the run is unsubscribed or cancelled. */
  readonly signal: AbortSignal;
}

/**
 * A tool's approval rule: `true`, or a function of the validated arguments. Written as a method
 * so a typed tool still fits in a plain `Tool[]` (method parameters are bivariant).
 */
export type NeedsApproval<Args = Record<string, unknown>> = boolean | { check(args: Args, ctx: ApprovalContext): boolean | PromiseLike<boolean> }["check"];

/** A call the loop did not run because it needs the host's approval. */
export interface PendingApproval {
  readonly toolCallId: string;
  readonly toolName: string;
  /** What would run: the model's arguments, or the host's edited ones. */
  readonly arguments: Record<string, unknown>;
  /** With an `approvalSecret`: the token binding a decision to this call; give it back in the decision. */
  readonly token?: string;
}

/** A question a call asked the user (`askUser`), waiting for the user's next message. */
export interface PendingQuestion {
  readonly toolCallId: string;
  readonly question: string;
  readonly opts: object;
}
