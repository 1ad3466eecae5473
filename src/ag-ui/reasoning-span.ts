import type { AGUIEvent, EventType } from "@ag-ui/core";
import type { ReasoningEvent, ReasoningPart } from "../index.js";

/**
 * The model's reasoning as AG-UI tells it: a span (`REASONING_START` … `REASONING_END`) for each
 * run of reasoning before the model's text or calls, one reasoning message per piece, and the
 * piece's provider state as the message's `REASONING_ENCRYPTED_VALUE`: the JSON text
 * `{"provider":…,"data":…}` that {@link fromRunAgentInput} reads back from the message's
 * `encryptedValue`.
 */
export class ReasoningSpan {
  readonly #emit: (e: AGUIEvent) => void;
  readonly #runId: string;
  #pieces = 0;
  #span: string | undefined;
  #message: { id: string; text: string } | undefined;

  constructor(emit: (e: AGUIEvent) => void, runId: string) {
    this.#emit = emit;
    this.#runId = runId;
  }

  write(event: ReasoningEvent): void {
    if (this.#span === undefined) {
      this.#span = `${this.#runId}:turn-${event.turn}:reasoning-${this.#pieces++}`;
      this.#emit({ type: "REASONING_START" as EventType.REASONING_START, messageId: this.#span });
    }
    let message = this.#message;
    if (message === undefined) {
      message = this.#message = { id: `${this.#span}:${this.#pieces++}`, text: "" };
      this.#emit({ type: "REASONING_MESSAGE_START" as EventType.REASONING_MESSAGE_START, messageId: message.id, role: "reasoning" });
    }
    if (event.state === "delta") {
      this.#content(message, event.text);
      return;
    }
    const { text } = event.part;
    if (text.length > message.text.length && text.startsWith(message.text)) this.#content(message, text.slice(message.text.length));
    const value = encryptedValueOf(event.part);
    if (value !== undefined)
      this.#emit({ type: "REASONING_ENCRYPTED_VALUE" as EventType.REASONING_ENCRYPTED_VALUE, subtype: "message", entityId: message.id, encryptedValue: value });
    this.#emit({ type: "REASONING_MESSAGE_END" as EventType.REASONING_MESSAGE_END, messageId: message.id });
    this.#message = undefined;
  }

  /** The model went on to its text or calls, or the step ended: the span closes. */
  close(): void {
    if (this.#span === undefined) return;
    if (this.#message !== undefined) this.#emit({ type: "REASONING_MESSAGE_END" as EventType.REASONING_MESSAGE_END, messageId: this.#message.id });
    this.#message = undefined;
    this.#emit({ type: "REASONING_END" as EventType.REASONING_END, messageId: this.#span });
    this.#span = undefined;
  }

  #content(message: { text: string; id: string }, delta: string): void {
    if (delta === "") return;
    message.text += delta;
    this.#emit({ type: "REASONING_MESSAGE_CONTENT" as EventType.REASONING_MESSAGE_CONTENT, messageId: message.id, delta });
  }
}

/** A piece's provider state as AG-UI's opaque string; none for text alone. */
export function encryptedValueOf(part: ReasoningPart): string | undefined {
  if (part.provider === undefined) return undefined;
  return JSON.stringify(part.data === undefined ? { provider: part.provider } : { provider: part.provider, data: part.data });
}
