import type { HaltMetadata } from "../../run/results/run-result.js";
import type { PendingQuestion } from "../../tool/approval/needs-approval.js";
import type { ToolMessage } from "../../tool/message.js";
import type { JournalAnswer } from "../journal/index.js";

const NO_QUESTIONS: readonly PendingQuestion[] = /* @__PURE__ */ Object.freeze([]);

/**
 * What a batch's calls answered, kept by each call's position in the model's order whatever order
 * they finish in: the tool messages, the questions asked, and the halt of the lowest position
 * (the one the model's order puts first wins, not the one that came first).
 */
export class BatchAnswers {
  /** The lowest-position halt among the calls answered. */
  halt: HaltMetadata | undefined;
  #haltAt = Infinity;
  readonly #messages: (ToolMessage | undefined)[] = [];
  /** Every question the calls asked, by position (sparse). */
  readonly #questions: PendingQuestion[] = [];

  /** The call at `position` answered with `message` alone (the common case: no wrapper object). */
  message(position: number, message: ToolMessage): void {
    this.#messages[position] = message;
  }

  /** Keep a call's answer in its place: its message, its question, its halt. */
  answer(position: number, answer: JournalAnswer): void {
    this.#messages[position] = answer.message;
    if (answer.question !== undefined) this.#questions[position] = answer.question;
    if (answer.halt !== undefined && position < this.#haltAt) {
      this.#haltAt = position;
      this.halt = answer.halt;
    }
  }

  /** The tool messages of the calls answered, in the model's order. */
  messages(): ToolMessage[] {
    return this.#messages.filter((m): m is ToolMessage => m !== undefined);
  }

  /** Every question the calls asked, in the model's order. */
  questions(): readonly PendingQuestion[] {
    // Most turns ask nothing: no array is made for them.
    return this.#questions.length === 0 ? NO_QUESTIONS : this.#questions.filter(() => true);
  }
}
