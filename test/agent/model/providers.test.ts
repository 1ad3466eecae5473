/**
 * The agent loop on the provider model functions, through the real SDKs, against the local fake
 * provider: a tool turn, then an answer, and an ask_user halt resumed with the user's answer.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { askUser, defineTool, runAgent, streamAgent } from "../../../src/index.js";
import type { Message } from "../../../src/tool/message.js";
import { anthropic, openai } from "../../../src/providers/index.js";
import { anthropicEvents, anthropicTextTurn, CHAT_DONE, chatChunk, chatTextTurn, chatToolDelta } from "../../support/fake-streams.js";
import { ASK, startFake, waitFor, weather, type Fake } from "../../support/model-harness.js";
import { must } from "../../support/must.js";

let fake: Fake;
beforeEach(async () => {
  fake = await startFake();
});
afterEach(() => fake.server.close());

const chatToolTurn = (id: string, name: string, args: string) => [
  chatChunk({ role: "assistant", content: "Checking." }),
  chatToolDelta(0, args.slice(0, 5), { id, name }),
  chatToolDelta(0, args.slice(5)),
  chatChunk({}, "tool_calls"),
  CHAT_DONE,
];

describe("the agent loop on openai.chatModel", () => {
  it("runs the tool the model streams, answers it, and asks the model again with the result", async () => {
    fake.server.queueStream("chat", { frames: chatToolTurn("call_1", "weather", '{"city":"Paris"}') });
    fake.server.queueStream("chat", { frames: chatTextTurn(["21 °C ", "in Paris."]) });
    const model = openai.chatModel({ client: fake.openai, model: "gpt-4.1" });

    const result = await runAgent({ model, tools: [weather], messages: ASK });

    expect(result.haltedReason).toBe("completed");
    const turn0: Message[] = [
      {
        role: "assistant",
        content: "Checking.",
        toolCalls: [{ id: "call_1", name: "weather", arguments: { city: "Paris" }, rawArguments: '{"city":"Paris"}' }],
      },
      { role: "tool", toolCallId: "call_1", name: "weather", content: '{"city":"Paris","tempC":21}', isError: false },
    ];
    expect(result.messages).toEqual([...ASK, ...turn0, { role: "assistant", content: "21 °C in Paris." }]);
    expect(fake.server.requests).toHaveLength(2);
    expect((must(fake.server.requests[1]).body as { messages: unknown }).messages).toEqual(openai.toChatMessages([...ASK, ...turn0]));
  });

  it("halts on ask_user and resumes with the answer: the provider sees the question and the answer", async () => {
    const confirm = defineTool({ name: "confirm", description: "Ask first", schema: z.object({ q: z.string() }), handler: ({ q }) => askUser(q) });
    fake.server.queueStream("chat", { frames: chatToolTurn("call_9", "confirm", '{"q":"Book it?"}') });
    fake.server.queueStream("chat", { frames: chatTextTurn(["Booked."]) });
    const model = openai.chatModel({ client: fake.openai, model: "gpt-4.1" });

    const first = await runAgent({ model, tools: [confirm], messages: ASK });
    expect(first).toMatchObject({ haltedReason: "ask_user", metadata: { pendingQuestion: "Book it?", pendingToolCallId: "call_9" } });
    const second = await runAgent({ model, tools: [confirm], messages: [...first.messages, { role: "user", content: "yes" }] });

    expect(second.haltedReason).toBe("completed");
    const sent = (must(fake.server.requests[1]).body as { messages: unknown[] }).messages;
    expect(sent.slice(-2)).toEqual(openai.toChatMessages([first.messages.at(-1) as Message, { role: "user", content: "yes" }]));
  });

  it("unsubscribing mid-stream closes the provider's stream", async () => {
    fake.server.queueStream("chat", { frames: [chatChunk({ role: "assistant", content: "Thinking" })], hang: true });
    const model = openai.chatModel({ client: fake.openai, model: "gpt-4.1" });
    const subscription = streamAgent({ model, tools: [weather], messages: ASK }).subscribe();
    await waitFor(() => fake.server.streams.length === 1);
    subscription.unsubscribe();
    await fake.server.streams[0]?.closedByClient;
  });

  it("opts.signal ends the run with cancelled and closes the provider's stream", async () => {
    fake.server.queueStream("chat", { frames: [chatChunk({ role: "assistant", content: "Thinking" })], hang: true });
    const model = openai.chatModel({ client: fake.openai, model: "gpt-4.1" });
    const controller = new AbortController();
    const done = runAgent({ model, tools: [weather], messages: ASK, signal: controller.signal });
    await waitFor(() => fake.server.streams.length === 1);
    controller.abort(new Error("the user left"));
    expect(await done).toMatchObject({ haltedReason: "cancelled", messages: ASK });
    await fake.server.streams[0]?.closedByClient;
  });
});

describe("the agent loop on anthropic.messagesModel", () => {
  it("runs a tool_use block and goes on to the answer", async () => {
    const e = anthropicEvents;
    fake.server.queueStream("anthropic", {
      frames: [e.start(), e.toolStart(0, "toolu_1", "weather"), e.json(0, '{"city":'), e.json(0, '"Oslo"}'), e.stop(0), e.delta("tool_use"), e.messageStop()],
    });
    fake.server.queueStream("anthropic", { frames: anthropicTextTurn(["Cold."]) });
    const model = anthropic.messagesModel({ client: fake.anthropic, model: "claude-sonnet-4-6", max_tokens: 256 });

    const result = await runAgent({ model, tools: [weather], messages: ASK });

    expect(result.haltedReason).toBe("completed");
    expect(result.messages.slice(2)).toEqual([
      { role: "tool", toolCallId: "toolu_1", name: "weather", content: '{"city":"Oslo","tempC":21}', isError: false },
      { role: "assistant", content: "Cold." },
    ]);
  });
});
