import type { JSONObject } from "@ai-sdk/provider";
import type { UIMessageChunk } from "ai";
import type { ReasoningEvent, ReasoningPart } from "../index.js";
import { jsonSafe } from "../util/json-safe.js";

/**
 * The `providerMetadata` key a reasoning part's provider state travels under to the page and
 * back ({@link fromUIMessages} reads it), so that a resumed turn sends the provider its own
 * reasoning again.
 */
export const REASONING_METADATA_KEY = "toolrx";

/**
 * The model's words on the message a stream writes: its text and its reasoning, each an open
 * part until something else comes. Ids are numbered per stream (`text-0`, `reasoning-1`).
 */
export class ModelParts {
  readonly #emit: (chunk: UIMessageChunk) => void;
  #parts = 0;
  #text: string | undefined;
  #reasoning: { id: string; text: string } | undefined;

  constructor(emit: (chunk: UIMessageChunk) => void) {
    this.#emit = emit;
  }

  text(delta: string): void {
    this.#closeReasoning(undefined);
    if (this.#text === undefined) {
      this.#text = `text-${this.#parts++}`;
      this.#emit({ type: "text-start", id: this.#text });
    }
    this.#emit({ type: "text-delta", id: this.#text, delta });
  }

  /** Reasoning streams as its own part; a complete piece ends it with the provider's state. */
  reasoning(event: ReasoningEvent): void {
    this.#closeText();
    let open = this.#reasoning;
    if (open === undefined) {
      open = this.#reasoning = { id: `reasoning-${this.#parts++}`, text: "" };
      this.#emit({ type: "reasoning-start", id: open.id });
    }
    if (event.state === "delta") {
      open.text += event.text;
      this.#emit({ type: "reasoning-delta", id: open.id, delta: event.text });
      return;
    }
    // A piece that came whole (or longer than its stream): the page gets the rest of its text.
    const { text } = event.part;
    if (text.length > open.text.length && text.startsWith(open.text)) this.#emit({ type: "reasoning-delta", id: open.id, delta: text.slice(open.text.length) });
    this.#closeReasoning(event.part);
  }

  /** Close what is open (the step ends). */
  close(): void {
    this.#closeText();
    this.#closeReasoning(undefined);
  }

  /** Forget what is open: the page drops the step (`reset-step`). */
  drop(): void {
    this.#text = undefined;
    this.#reasoning = undefined;
  }

  #closeText(): void {
    if (this.#text !== undefined) this.#emit({ type: "text-end", id: this.#text });
    this.#text = undefined;
  }

  #closeReasoning(part: ReasoningPart | undefined): void {
    const open = this.#reasoning;
    if (open === undefined) return;
    this.#reasoning = undefined;
    if (part?.provider === undefined) {
      this.#emit({ type: "reasoning-end", id: open.id });
      return;
    }
    const state: JSONObject = part.data === undefined ? { provider: part.provider } : { provider: part.provider, data: jsonSafe(part.data) as JSONObject };
    this.#emit({ type: "reasoning-end", id: open.id, providerMetadata: { [REASONING_METADATA_KEY]: state } });
  }
}
