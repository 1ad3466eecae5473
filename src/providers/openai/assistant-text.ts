import type { AssistantMessage } from "../../index.js";
import { OPENAI_RESPONSES } from "./reasoning-items.js";

/** An assistant's text as Responses input: plain, or the output `message` item the API gave it (its `id` kept). */
export type AssistantTextItem =
  | { role: "assistant"; content: string }
  | { type: "message"; id: string; role: "assistant"; status: "completed"; content: { type: "output_text"; text: string; annotations: [] }[] };

/**
 * A writer of an assistant message's text, stretch by stretch in order (as `interleaved` hands it
 * out): each stretch is cut where the API's message items ended (`textState`), and a piece of an
 * item goes back as that `message` item, under its `id`; text without one goes plain. Empty
 * text writes nothing.
 */
export function assistantText(message: AssistantMessage): (stretch: string) => AssistantTextItem[] {
  const blocks = message.textState ?? [];
  let at = 0;
  return (stretch) => {
    const items: AssistantTextItem[] = [];
    const end = at + stretch.length;
    let from = at;
    // The blocks cover the text from 0 on, one after another: each takes its part of the stretch.
    for (const block of blocks) {
      const to = Math.min(block.textEnd, end);
      if (to <= from) continue;
      const text = message.content.slice(from, to);
      const id = block.provider === OPENAI_RESPONSES ? block.data.id : undefined;
      items.push(
        typeof id === "string"
          ? { type: "message", id, role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] }
          : { role: "assistant", content: text },
      );
      from = to;
    }
    if (end > from) items.push({ role: "assistant", content: message.content.slice(from, end) });
    at = end;
    return items;
  };
}
