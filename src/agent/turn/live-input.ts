import type { ToolCall } from "../../tool/tool-call.js";
import type { ToolInputEvent } from "../events/index.js";

/**
 * The calls a model is still writing in one turn: turns its `tool_input_*` events into
 * `tool_input` agent events with the argument text so far. Made only when someone watches the
 * stream; a malformed input event is ignored, since the call itself arrives whole anyway.
 */
export class LiveInput {
  readonly #turn: number;
  readonly #calls = new Map<string, { name: string; text: string }>();

  constructor(turn: number) {
    this.#turn = turn;
  }

  started(id: unknown, name: unknown): ToolInputEvent | undefined {
    if (typeof id !== "string" || typeof name !== "string") return undefined;
    this.#calls.set(id, { name, text: "" });
    return this.#event("started", id, name, "", "");
  }

  delta(id: unknown, delta: unknown): ToolInputEvent | undefined {
    const call = typeof id === "string" ? this.#calls.get(id) : undefined;
    if (call === undefined || typeof delta !== "string" || delta === "") return undefined;
    call.text += delta;
    return this.#event("streaming", id as string, call.name, call.text, delta);
  }

  /** The `complete` event of a call that was announced as started; `undefined` for any other. */
  complete(call: ToolCall): ToolInputEvent | undefined {
    if (!this.#calls.delete(call.id)) return undefined;
    let text = call.rawArguments;
    if (text === undefined) {
      try {
        text = JSON.stringify(call.arguments) ?? "{}";
      } catch {
        text = "{}";
      }
    }
    return this.#event("complete", call.id, call.name, text, "");
  }

  #event(state: ToolInputEvent["state"], toolCallId: string, toolName: string, text: string, delta: string): ToolInputEvent {
    return { type: "tool_input", turn: this.#turn, state, toolCallId, toolName, text, delta };
  }
}
