import { AWAITING_USER_RESPONSE, type ToolEvent } from "./events.js";
import { isToolError } from "./tool-error.js";

/** One tool-role message per call, ready to append to the conversation. */
export interface ToolMessage {
  role: "tool";
  toolCallId: string;
  name: string;
  content: string;
  /** True when `content` is an error text (`encodeError`). */
  isError: boolean;
}

/** Why and where a batch halted; the call with the lowest index wins. */
export type HaltMetadata =
  | { haltedReason: "ask_user"; pendingQuestion: string; pendingToolCallId: string; askUserOpts: object }
  | { haltedReason: "tool_error"; haltToolCallId: string; onToolErrorException?: unknown }
  | { haltedReason: string; haltToolCallId: string; haltResult: unknown };

/** A finished batch: messages in input order, and `halt` only when some call halted. */
export interface RunResult {
  messages: ToolMessage[];
  halt?: HaltMetadata;
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
  #haltIndex = Infinity;
  #halt: HaltMetadata | undefined;

  /** Take one event; only tail events add a message. */
  add(event: ToolEvent): void {
    switch (event.type) {
      case "tool_result_encoded":
        this.#message(event.index, event.toolCallId, event.toolName, event.content, event.isError);
        return;
      case "ask_user_requested":
        this.#message(event.index, event.toolCallId, event.toolName, AWAITING_USER_RESPONSE, false);
        this.#halted(event.index, {
          haltedReason: "ask_user",
          pendingQuestion: event.question,
          pendingToolCallId: event.toolCallId,
          askUserOpts: event.opts,
        });
        return;
      case "tool_halt":
        this.#message(event.index, event.toolCallId, event.toolName, event.content, event.isError);
        this.#halted(event.index, haltOf(event.reason, event.toolCallId, event.result));
        return;
      default:
        return;
    }
  }

  /** The messages in input order, and the earliest halt. */
  result(): RunResult {
    const messages = this.#messages.filter(() => true);
    return this.#halt === undefined ? { messages } : { messages, halt: this.#halt };
  }

  #message(index: number, toolCallId: string, name: string, content: string, isError: boolean): void {
    this.#messages[index] = { role: "tool", toolCallId, name, content, isError };
  }

  #halted(index: number, halt: HaltMetadata): void {
    if (index < this.#haltIndex) {
      this.#haltIndex = index;
      this.#halt = halt;
    }
  }
}

function haltOf(reason: string, haltToolCallId: string, result: unknown): HaltMetadata {
  if (reason !== "tool_error") return { haltedReason: reason, haltToolCallId, haltResult: result };
  // A policy function that threw leaves its exception as the cause of the halting error.
  if (isToolError(result) && result.metadata.onToolErrorThrew === true) {
    return { haltedReason: "tool_error", haltToolCallId, onToolErrorException: result.cause };
  }
  return { haltedReason: "tool_error", haltToolCallId };
}
