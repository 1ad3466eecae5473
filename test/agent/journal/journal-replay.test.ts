import { Observable } from "rxjs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { replayOf } from "../../../src/agent/journal/journal-replay.js";
import {
  type AssistantMessage,
  defineTool,
  type HandlerResult,
  MemoryJournalStore,
  type ModelEvent,
  type ModelRequest,
  runAgent,
  streamAgent,
} from "../../../src/index.js";

describe("replayOf", () => {
  it("plays a recorded reply's provider items back where they stood in its text, so the replayed turn is the recorded one", () => {
    const use = { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "q" } };
    const message: AssistantMessage = {
      role: "assistant",
      content: "Looking. Found.",
      toolCalls: [{ id: "c1", name: "weather", arguments: {} }],
      providerItems: [
        { provider: "anthropic", item: use, textOffset: 0 },
        { provider: "anthropic", item: { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: [] }, textOffset: 8 },
      ],
    };
    expect(replayOf({ message, finishReason: "tool_calls", partial: false })).toEqual([
      { type: "provider_item", provider: "anthropic", item: use },
      { type: "text_delta", text: "Looking." },
      { type: "provider_item", provider: "anthropic", item: { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: [] } },
      { type: "text_delta", text: " Found." },
      { type: "tool_call", call: { id: "c1", name: "weather", arguments: {} } },
      { type: "finish", reason: "tool_calls" },
    ]);
  });
});

describe("a replayed reply's reasoning", () => {
  const parts = [
    { text: "Weigh the order.", provider: "anthropic", data: { signature: "sig-1" } },
    { text: "Then pay.", provider: "anthropic", data: { signature: "sig-2" } },
  ];

  it("comes back first, each part as first given, before the reply's text and calls", () => {
    const message: AssistantMessage = { role: "assistant", content: "Paying.", reasoning: parts, toolCalls: [{ id: "c1", name: "pay", arguments: {} }] };
    expect(replayOf({ message, finishReason: "tool_calls", partial: false })).toEqual([
      { type: "reasoning", part: parts[0] },
      { type: "reasoning", part: parts[1] },
      { type: "text_delta", text: "Paying." },
      { type: "tool_call", call: { id: "c1", name: "pay", arguments: {} } },
      { type: "finish", reason: "tool_calls" },
    ]);
  });

  it("is in the restarted run's messages and the next request, so a provider gets its signed reasoning back", async () => {
    const store = new MemoryJournalStore();
    const journal = { store, conversationKey: "conv", owner: "p1" };
    const requests: ModelRequest[] = [];
    const model = (request: ModelRequest) =>
      new Observable<ModelEvent>((subscriber) => {
        requests.push(request);
        if (request.messages.some((m) => m.role === "tool")) subscriber.next({ type: "text_delta", text: "done" });
        else {
          for (const part of parts) subscriber.next({ type: "reasoning", part });
          subscriber.next({ type: "tool_call", call: { id: "c1", name: "pay", arguments: {} } });
        }
        subscriber.complete();
      });
    const pay = defineTool({ name: "pay", description: "", schema: z.object({}), handler: () => new Promise<HandlerResult>(() => {}) });
    // The first process stops while `pay` runs: its reply is on record, its call's fate unknown.
    await new Promise<void>((resolve) => {
      const subscription = streamAgent({ model, tools: [pay], messages: [{ role: "user", content: "go" }], journal }).subscribe((e) => {
        if (e.type === "tool_event" && e.event.type === "tool_execution_started")
          queueMicrotask(() => {
            subscription.unsubscribe();
            resolve();
          });
      });
    });
    requests.length = 0;
    const result = await runAgent({ model, tools: [pay], messages: [{ role: "user", content: "go" }], journal });
    expect(result.haltedReason).toBe("completed");
    const reply = result.messages.find((m) => m.role === "assistant");
    expect(reply).toMatchObject({ role: "assistant", reasoning: parts });
    // Turn 0 came from the journal; only turn 1 asked the model, with the reasoning as given.
    expect(requests).toHaveLength(1);
    expect(requests[0]?.messages.find((m) => m.role === "assistant")).toMatchObject({ reasoning: parts });
  });
});
