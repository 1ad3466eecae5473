import type { ContentPart } from "../../tool/content-part.js";
import type { HandlerResult } from "../../tool/results.js";

/** Fields every event carries: which call it belongs to. */
export interface ToolEventBase {
  /** The call's position in the input (arrival order for an Observable of calls). */
  readonly index: number;
  readonly toolCallId: string;
  readonly toolName: string;
}

/** The call took its concurrency slot; validation and the handler run next. */
export interface ToolExecutionStarted extends ToolEventBase {
  readonly type: "tool_execution_started";
  readonly arguments: Record<string, unknown>;
}

/**
 * The call's outcome: the handler's own result, `error(E)` for the error term E the policy got,
 * or `ok(r)` when a policy function answered `{ continue: r }`.
 */
export interface ToolExecutionCompleted extends ToolEventBase {
  readonly type: "tool_execution_completed";
  readonly result: HandlerResult;
}

/** The tool message's content is ready; the batch goes on. */
export interface ToolResultEncoded extends ToolEventBase {
  readonly type: "tool_result_encoded";
  readonly content: string;
  /** True when `content` is an error text from `encodeError`. */
  readonly isError: boolean;
  /** The result's content parts (`ok(value, { parts })`), for the tool message; absent without. */
  readonly parts?: readonly ContentPart[];
}

/** The handler asked the user a question; the batch halts with `haltedReason: "ask_user"`. */
export interface AskUserRequested extends ToolEventBase {
  readonly type: "ask_user_requested";
  readonly question: string;
  readonly opts: object;
}

/** The call halts the batch: a handler's own halt, or `reason: "tool_error"` from the policy. */
export interface ToolHaltEvent extends ToolEventBase {
  readonly type: "tool_halt";
  readonly reason: string;
  readonly result: unknown;
  readonly content: string;
  readonly isError: boolean;
}

/**
 * Everything a batch tells as it runs. Per call: `tool_execution_started`, then
 * `tool_execution_completed`, then exactly one of `tool_result_encoded`, `ask_user_requested`
 * or `tool_halt`. The union is closed: switch on `type` exhaustively.
 */
export type ToolEvent = ToolExecutionStarted | ToolExecutionCompleted | ToolResultEncoded | AskUserRequested | ToolHaltEvent;

/** The last event of a call: the one that carries its message. */
export type ToolTailEvent = ToolResultEncoded | AskUserRequested | ToolHaltEvent;

/** The content of an `ask_user` call's tool message. */
export const AWAITING_USER_RESPONSE = "<awaiting user response>";
