import { AWAITING_USER_RESPONSE, type AskUserRequested, type ToolEvent, type ToolHaltEvent, type ToolResultEncoded } from "./events.js";
import { isToolError } from "../../tool/tool-error.js";
import type { ToolMessage } from "../../tool/message.js";
import type { PendingApproval } from "../../tool/approval/needs-approval.js";

/** A call asked the user a question. */
export interface AskUserHalt {
  haltedReason: "ask_user";
  pendingQuestion: string;
  pendingToolCallId: string;
  askUserOpts: object;
}

/** The `onToolError` policy halted; `onToolErrorException` is what a policy function threw. */
export interface ToolErrorHalt {
  haltedReason: "tool_error";
  haltToolCallId: string;
  onToolErrorException?: unknown;
}

/**
 * A handler halted with its own reason. The other members' fields are declared `never` here so
 * that after `haltedReason === "ask_user"` they read as the ask-user member's (a handler's
 * `string` reason cannot be told apart from a literal by the compiler, so this member stays in
 * the narrowed union; its `never` fields keep it from hiding the others').
 */
export interface HandlerHalt {
  haltedReason: string;
  haltToolCallId: string;
  haltResult: unknown;
  pendingQuestion?: never;
  pendingToolCallId?: never;
  askUserOpts?: never;
  onToolErrorException?: never;
}

/**
 * Why and where a batch halted. Narrow on `haltedReason`:
 *
 * @example
 * if (r.halt?.haltedReason === "ask_user") ask(r.halt.pendingQuestion); // string (| undefined, see HandlerHalt)
 */
export type HaltMetadata = AskUserHalt | ToolErrorHalt | HandlerHalt;

/**
 * A finished batch: messages in input order; when some call halted, `halt` is the one with the
 * lowest index and `halts` every halt in input order (`halts[0]` is `halt`). Calls held for
 * approval (their tool `needsApproval`, no decision in `approvals`) halt with
 * `approval_required`, and are listed in `pendingApprovals`, in input order.
 */
export interface RunResult {
  messages: ToolMessage[];
  halt?: HaltMetadata;
  halts?: HaltMetadata[];
  pendingApprovals?: PendingApproval[];
}

/**
 * Folds a batch's events into its {@link RunResult}, one event at a time, so a consumer that
 * also shows the events live can collect the batch from the same subscription.
 *
 * @example
 * const collector = new RunResultCollector();
 * streamToolCalls(calls, tools).subscribe({ next: (e) => collector.add(e), complete: () => console.log(collector.result()) });
 */
export class RunResultCollector {
  readonly #messages: ToolMessage[] = [];
  /** Sparse, by index: most batches never halt, so this stays empty and costs nothing. */
  readonly #halts: HaltMetadata[] = [];
  #pending: PendingApproval[] | undefined;

  /** Take one event; only tail events add a message. */
  add(event: ToolEvent): void {
    switch (event.type) {
      case "tool_result_encoded":
        this.#messages[event.index] = encodedMessage(event);
        return;
      case "ask_user_requested":
        this.#message(event.index, event.toolCallId, event.toolName, AWAITING_USER_RESPONSE, false);
        this.#halts[event.index] = haltMetadataOf(event);
        return;
      case "tool_halt":
        this.#message(event.index, event.toolCallId, event.toolName, event.content, event.isError);
        this.#halts[event.index] = haltMetadataOf(event);
        // The reason is reserved: only the runner's approval gate halts with it.
        if (event.reason === "approval_required") {
          this.#pending ??= [];
          this.#pending[event.index] = event.result as PendingApproval;
        }
        return;
      default:
        return;
    }
  }

  /** The messages in input order; the earliest halt, and every halt in input order. */
  result(): RunResult {
    const messages = this.#messages.filter(() => true);
    if (this.#halts.length === 0) return { messages };
    const halts = this.#halts.filter(() => true);
    if (this.#pending === undefined) return { messages, halt: halts[0] as HaltMetadata, halts };
    return { messages, halt: halts[0] as HaltMetadata, halts, pendingApprovals: this.#pending.filter(() => true) };
  }

  #message(index: number, toolCallId: string, name: string, content: string, isError: boolean): void {
    this.#messages[index] = { role: "tool", toolCallId, name, content, isError };
  }
}

/** The tool message of a call that ended `tool_result_encoded`: its content, and its parts when it has any. */
export function encodedMessage(event: ToolResultEncoded): ToolMessage {
  const { toolCallId, toolName: name, content, isError, parts } = event;
  return parts === undefined ? { role: "tool", toolCallId, name, content, isError } : { role: "tool", toolCallId, name, content, isError, parts };
}

/** The halt a call's tail event declares: ask_user, the policy's tool_error, or a handler's own reason. */
export function haltMetadataOf(event: AskUserRequested | ToolHaltEvent): HaltMetadata {
  if (event.type === "ask_user_requested") {
    return { haltedReason: "ask_user", pendingQuestion: event.question, pendingToolCallId: event.toolCallId, askUserOpts: event.opts };
  }
  const { reason, toolCallId: haltToolCallId, result } = event;
  if (reason !== "tool_error") return { haltedReason: reason, haltToolCallId, haltResult: result };
  // A policy function that threw leaves its exception as the cause of the halting error.
  if (isToolError(result) && result.metadata.onToolErrorThrew === true) {
    return { haltedReason: "tool_error", haltToolCallId, onToolErrorException: result.cause };
  }
  return { haltedReason: "tool_error", haltToolCallId };
}
