import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { replayOf } from "../../../src/agent/journal/journal-replay.js";
import { type AssistantMessage, type ModelEvent, runAgent } from "../../../src/index.js";

/** An assistant message with provider items and text states at any offsets of its text, in order. */
const recorded = fc
  .record({
    content: fc.string({ maxLength: 20 }),
    items: fc.array(fc.nat(), { maxLength: 4 }),
    states: fc.array(fc.nat(), { maxLength: 4 }),
  })
  .map(({ content, items, states }): AssistantMessage => {
    const offsets = (list: number[]) => list.map((n) => n % (content.length + 1)).sort((a, b) => a - b);
    const message: { -readonly [K in keyof AssistantMessage]: AssistantMessage[K] } = { role: "assistant", content };
    const itemOffsets = offsets(items);
    const stateEnds = offsets(states);
    if (itemOffsets.length > 0)
      message.providerItems = itemOffsets.map((textOffset, i) => ({
        provider: "openai-responses",
        item: { type: "web_search_call", id: `ws_${i}` },
        textOffset,
      }));
    if (stateEnds.length > 0) message.textState = stateEnds.map((textEnd, i) => ({ provider: "ai-sdk", data: { n: i }, textEnd }));
    return message;
  });

describe("replayOf", () => {
  it("gives back, through the loop, the message it replays: text, provider items and text states where they stood", async () => {
    await fc.assert(
      fc.asyncProperty(recorded, async (message) => {
        const events: ModelEvent[] = replayOf({ message, finishReason: "stop", partial: false });
        const result = await runAgent({ model: () => events, tools: [], messages: [{ role: "user", content: "go" }] });
        expect(result.messages[1]).toEqual(message);
      }),
    );
  });
});
