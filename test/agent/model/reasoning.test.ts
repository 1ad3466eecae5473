import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { lastValueFrom, toArray } from "rxjs";
import { z } from "zod";
import { defineTool, ok, runAgent, streamAgent, type AgentEvent, type Message, type Model, type ModelEvent, type ReasoningPart } from "../../../src/index.js";
import { anthropic, checkConversation, openai } from "../../../src/providers/index.js";
import { anthropicEvents as e, anthropicTextTurn, responses, responsesTextTurn, type SseFrame } from "../../support/fake-streams.js";
import { startFake, type Fake } from "../../support/model-harness.js";
import { finish, user } from "../../support/agent-helpers.js";

// Issue 31: the model's reasoning reaches the host as events, stays in the conversation, and goes
// back to the provider that wrote it (and to no other) on the next request.

const weather = defineTool({
  name: "weather",
  description: "Weather by city",
  schema: z.object({ city: z.string() }),
  handler: ({ city }) => ok({ city, tempC: 21 }),
});

const signed: ReasoningPart = { text: "Paris, so weather.", provider: "anthropic", data: { type: "thinking", signature: "sig-1" } };

describe("reasoning in the loop", () => {
  it("streams deltas, closes each piece, and keeps the pieces on the assistant message", async () => {
    let turn = 0;
    const model: Model = () =>
      turn++ === 0
        ? ([
            { type: "reasoning_delta", text: "Paris, " },
            { type: "reasoning_delta", text: "so weather." },
            { type: "reasoning", part: signed },
            { type: "reasoning_delta", text: "unsigned" },
            { type: "tool_call", call: { id: "c1", name: "weather", arguments: { city: "Paris" } } },
            finish("tool_calls"),
          ] satisfies ModelEvent[])
        : [{ type: "reasoning_delta", text: "done" }, finish("stop")];
    const events = await lastValueFrom(streamAgent({ model, tools: [weather], messages: [user("Weather?")] }).pipe(toArray()));
    const shown = events.flatMap((ev: AgentEvent) =>
      ev.type === "reasoning" ? [ev.state === "delta" ? `delta ${ev.text}` : `complete ${JSON.stringify(ev.part)}`] : [],
    );
    expect(shown).toEqual([
      "delta Paris, ",
      "delta so weather.",
      `complete ${JSON.stringify(signed)}`,
      "delta unsigned",
      'complete {"text":"unsigned"}',
      "delta done",
      'complete {"text":"done"}',
    ]);
    const halted = events.at(-1) as Extract<AgentEvent, { type: "agent_halted" }>;
    const assistants = halted.messages.filter((m) => m.role === "assistant");
    expect(assistants.map((m) => (m.role === "assistant" ? m.reasoning : undefined))).toEqual([[signed, { text: "unsigned" }], [{ text: "done" }]]);
    const reply = events.find((ev) => ev.type === "model_reply");
    expect(reply?.type === "model_reply" && reply.message.reasoning).toEqual([signed, { text: "unsigned" }]);
  });

  it("fails the turn on a malformed reasoning event, naming it", async () => {
    const model: Model = () => [{ type: "reasoning", part: { text: 42 } } as unknown as ModelEvent, finish("stop")];
    const result = await runAgent({ model, tools: [], messages: [user("?")] });
    expect(result.haltedReason).toBe("error");
    expect(String((result.metadata as { error: Error }).error.message)).toContain("reasoning event whose `part`");
  });

  it("rejects a conversation whose reasoning is not reasoning parts", async () => {
    const messages = [user("?"), { role: "assistant", content: "", reasoning: [{ text: 1 }] } as unknown as Message];
    await expect(runAgent({ model: () => [finish("stop")], tools: [], messages })).rejects.toThrow("`messages[1].reasoning`");
  });
});

let fake: Fake;
beforeEach(async () => {
  fake = await startFake();
});
afterEach(() => fake.server.close());

const frame = (data: { type: string } & Record<string, unknown>): SseFrame => ({ event: data.type, data });

describe("anthropic.messagesModel with extended thinking", () => {
  it("parses thinking and redacted thinking, and sends them back first in the turn, signed", async () => {
    fake.server.queueStream("anthropic", {
      frames: [
        e.start(),
        frame({ type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "", signature: "" } }),
        frame({ type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "Paris, " } }),
        frame({ type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "so weather." } }),
        frame({ type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "sig-1" } }),
        e.stop(0),
        frame({ type: "content_block_start", index: 1, content_block: { type: "redacted_thinking", data: "opaque" } }),
        e.stop(1),
        e.toolStart(2, "toolu_a", "weather"),
        e.json(2, '{"city":"Paris"}'),
        e.stop(2),
        e.delta("tool_use"),
        e.messageStop(),
      ],
    });
    fake.server.queueStream("anthropic", { frames: anthropicTextTurn(["21°C."]) });
    const result = await runAgent({
      model: anthropic.messagesModel({ client: fake.anthropic, model: "claude-sonnet-4-6" }),
      tools: [weather],
      messages: [user("Weather in Paris?")],
    });
    expect(result.haltedReason).toBe("completed");
    const turn = result.messages[1];
    expect(turn?.role === "assistant" && turn.reasoning).toEqual([
      signed,
      { text: "", provider: "anthropic", data: { type: "redacted_thinking", data: "opaque" } },
    ]);
    const second = fake.server.requests.at(-1)?.body as { messages: { role: string; content: unknown }[] };
    expect(second.messages[1]).toEqual({
      role: "assistant",
      content: [
        { type: "thinking", thinking: "Paris, so weather.", signature: "sig-1" },
        { type: "redacted_thinking", data: "opaque" },
        { type: "tool_use", id: "toolu_a", name: "weather", input: { city: "Paris" } },
      ],
    });
    expect(checkConversation(second.messages, "anthropic")).toEqual([]);
    // The stored conversation reads back with its reasoning.
    const back = anthropic.fromMessages(second.messages)[1];
    expect(back?.role === "assistant" && back.reasoning).toEqual(turn?.role === "assistant" && turn.reasoning);
  });
});

describe("reasoning of one provider is not sent to another", () => {
  const foreign: Message[] = [
    user("?"),
    {
      role: "assistant",
      content: "Hi.",
      reasoning: [signed, { text: "plain" }, { text: "", provider: "openai-responses", data: { type: "reasoning", id: "rs_1", summary: [] } }],
    },
  ];

  it("anthropic keeps its own thinking block only", () => {
    expect(anthropic.toMessages(foreign).messages[1]).toEqual({
      role: "assistant",
      content: [
        { type: "thinking", thinking: "Paris, so weather.", signature: "sig-1" },
        { type: "text", text: "Hi." },
      ],
    });
  });

  it("Responses keeps its own reasoning item only, unchanged", () => {
    expect(openai.toResponsesInput(foreign).slice(1)).toEqual([
      { type: "reasoning", id: "rs_1", summary: [] },
      { role: "assistant", content: "Hi." },
    ]);
  });

  it("Chat Completions has no place for reasoning", () => {
    expect(openai.toChatMessages(foreign)[1]).toEqual({ role: "assistant", content: "Hi." });
  });

  it("checkConversation flags a thinking block outside the assistant's turn, or unsigned", () => {
    const issues = checkConversation(
      [
        { role: "user", content: [{ type: "thinking", thinking: "x", signature: "s" }] },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "x" },
            { type: "text", text: "Hi." },
          ],
        },
      ],
      "anthropic",
    );
    expect(issues.map((i) => [i.code, i.path])).toEqual([
      ["misplaced_block", [0, "content", 0]],
      ["invalid_type", [1, "content", 0, "signature"]],
    ]);
  });
});

describe("openai.responsesModel with reasoning items", () => {
  it("streams the summary, keeps the whole item, and sends it back before the call", async () => {
    const item = {
      type: "reasoning",
      id: "rs_1",
      summary: [
        { type: "summary_text", text: "Paris." },
        { type: "summary_text", text: "Weather." },
      ],
      encrypted_content: "enc",
    };
    fake.server.queueStream("responses", {
      frames: [
        responses.created(),
        frame({ type: "response.output_item.added", sequence_number: 90, output_index: 0, item: { type: "reasoning", id: "rs_1", summary: [] } }),
        frame({
          type: "response.reasoning_summary_part.added",
          sequence_number: 91,
          item_id: "rs_1",
          output_index: 0,
          summary_index: 0,
          part: { type: "summary_text", text: "" },
        }),
        frame({ type: "response.reasoning_summary_text.delta", sequence_number: 92, item_id: "rs_1", output_index: 0, summary_index: 0, delta: "Paris." }),
        frame({
          type: "response.reasoning_summary_part.added",
          sequence_number: 93,
          item_id: "rs_1",
          output_index: 0,
          summary_index: 1,
          part: { type: "summary_text", text: "" },
        }),
        frame({ type: "response.reasoning_summary_text.delta", sequence_number: 94, item_id: "rs_1", output_index: 0, summary_index: 1, delta: "Weather." }),
        frame({ type: "response.output_item.done", sequence_number: 95, output_index: 0, item }),
        responses.callAdded(1, "call_r", "weather"),
        responses.callDone(1, "call_r", "weather", '{"city":"Paris"}'),
        responses.completed(),
      ],
    });
    fake.server.queueStream("responses", { frames: responsesTextTurn(["21°C."]) });
    const events = await lastValueFrom(
      streamAgent({ model: openai.responsesModel({ client: fake.openai, model: "o4-mini" }), tools: [weather], messages: [user("Weather in Paris?")] }).pipe(
        toArray(),
      ),
    );
    const deltas = events.flatMap((ev) => (ev.type === "reasoning" && ev.state === "delta" ? [ev.text] : []));
    expect(deltas.join("")).toBe("Paris.\n\nWeather.");
    const halted = events.at(-1) as Extract<AgentEvent, { type: "agent_halted" }>;
    const turn = halted.messages[1];
    expect(turn?.role === "assistant" && turn.reasoning).toEqual([{ text: "Paris.\n\nWeather.", provider: "openai-responses", data: item }]);
    const second = fake.server.requests.at(-1)?.body as { input: unknown[] };
    expect(second.input.slice(1, 3)).toEqual([item, { type: "function_call", id: "fc_1", call_id: "call_r", name: "weather", arguments: '{"city":"Paris"}' }]);
    expect(checkConversation(second.input, "openai-responses")).toEqual([]);
    const back = openai.fromResponsesInput(second.input)[1];
    expect(back?.role === "assistant" && back.reasoning).toEqual(turn?.role === "assistant" && turn.reasoning);
  });
});
