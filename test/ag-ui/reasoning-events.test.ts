import type { AGUIEvent } from "@ag-ui/core";
import { EventSchemas, RunAgentInputSchema } from "@ag-ui/core/schemas";
import { lastValueFrom, toArray } from "rxjs";
import { describe, expect, it } from "vitest";
import { fromRunAgentInput, toAgUiEvents } from "../../src/ag-ui/index.js";
import { streamAgent, type Model, type ModelEvent } from "../../src/index.js";

// Issue 31: reasoning as AG-UI's reasoning events (its provider state as the encrypted value),
// read back from a reasoning message; a model_reply ends the text message and tells the finish reason.

const signed = { text: "Think it over.", provider: "anthropic", data: { type: "thinking", signature: "sig" } };

const model: Model = () =>
  [
    { type: "reasoning_delta", text: "Think " },
    { type: "reasoning", part: signed },
    { type: "text_delta", text: "Hello." },
    { type: "finish", reason: "stop" },
  ] satisfies ModelEvent[];

async function eventsOf(): Promise<AGUIEvent[]> {
  return lastValueFrom(
    streamAgent({ model, tools: [], messages: [{ role: "user", content: "Hi" }] }).pipe(toAgUiEvents({ threadId: "t", runId: "r" }), toArray()),
  );
}

describe("toAgUiEvents and reasoning", () => {
  it("sends a reasoning span with one message per piece, its state as REASONING_ENCRYPTED_VALUE, before the text", async () => {
    const events = await eventsOf();
    for (const e of events) expect(EventSchemas.safeParse(e).success, JSON.stringify(e)).toBe(true);
    const words = events.filter((e) => e.type.startsWith("REASONING") || e.type.startsWith("TEXT_MESSAGE"));
    expect(words).toEqual([
      { type: "REASONING_START", messageId: "r:turn-0:reasoning-0" },
      { type: "REASONING_MESSAGE_START", messageId: "r:turn-0:reasoning-0:1", role: "reasoning" },
      { type: "REASONING_MESSAGE_CONTENT", messageId: "r:turn-0:reasoning-0:1", delta: "Think " },
      { type: "REASONING_MESSAGE_CONTENT", messageId: "r:turn-0:reasoning-0:1", delta: "it over." },
      {
        type: "REASONING_ENCRYPTED_VALUE",
        subtype: "message",
        entityId: "r:turn-0:reasoning-0:1",
        encryptedValue: JSON.stringify({ provider: "anthropic", data: signed.data }),
      },
      { type: "REASONING_MESSAGE_END", messageId: "r:turn-0:reasoning-0:1" },
      { type: "REASONING_END", messageId: "r:turn-0:reasoning-0" },
      { type: "TEXT_MESSAGE_START", messageId: "r:turn-0", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "r:turn-0", delta: "Hello." },
      { type: "TEXT_MESSAGE_END", messageId: "r:turn-0" },
    ]);
  });

  it("ends the text message at model_reply and says why the model stopped, in a toolrx.model_reply custom event", async () => {
    const events = await eventsOf();
    const at = events.findIndex((e) => e.type === "CUSTOM" && e.name === "toolrx.model_reply");
    expect(events[at]).toEqual({ type: "CUSTOM", name: "toolrx.model_reply", value: { turn: 0, finishReason: "stop" } });
    expect(events[at - 1]).toEqual({ type: "TEXT_MESSAGE_END", messageId: "r:turn-0" });
  });

  it("fromRunAgentInput reads reasoning messages back as the next assistant message's reasoning", () => {
    const input = RunAgentInputSchema.parse({
      threadId: "t",
      runId: "r2",
      state: {},
      tools: [],
      context: [],
      forwardedProps: {},
      messages: [
        { id: "u", role: "user", content: "Hi" },
        { id: "x", role: "reasoning", content: "Think it over.", encryptedValue: JSON.stringify({ provider: "anthropic", data: signed.data }) },
        { id: "y", role: "reasoning", content: "plain", encryptedValue: "not json" },
        { id: "a", role: "assistant", content: "Hello." },
        { id: "z", role: "reasoning", content: "alone" },
        { id: "u2", role: "user", content: "Again" },
      ],
    });
    expect(fromRunAgentInput(input)).toEqual([
      { role: "user", content: "Hi" },
      { role: "assistant", content: "Hello.", reasoning: [signed, { text: "plain" }] },
      { role: "assistant", content: "", reasoning: [{ text: "alone" }] },
      { role: "user", content: "Again" },
    ]);
  });
});
