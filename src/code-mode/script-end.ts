import type { HandlerResult, PendingApproval } from "../index.js";
import type { ScriptRecord } from "./replay-record.js";

/** A nested call that asked the user, as its `ask_user_requested` event said it. */
export interface NestedQuestion {
  readonly toolCallId: string;
  readonly question: string;
  readonly opts: object;
}

/**
 * How one script ends: its result (a nested handler's own halt included), or held for the host
 * (approvals, a question) with the record to resume from.
 */
export type ScriptEnd =
  | { readonly type: "result"; readonly result: HandlerResult }
  | {
      readonly type: "held";
      readonly pending: readonly PendingApproval[];
      readonly question: NestedQuestion | undefined;
      readonly record: ScriptRecord;
    };

/** A nested call to run again as a continuation: its `metadata` carries what resumes it (a subagent's state). */
export interface NestedContinuation {
  readonly seq: number;
  readonly metadata: Record<string, unknown>;
}
