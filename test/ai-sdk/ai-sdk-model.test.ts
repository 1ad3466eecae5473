import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { convertArrayToReadableStream, MockLanguageModelV3, MockLanguageModelV4 } from "ai/test";
import fc from "fast-check";
import { firstValueFrom, from, lastValueFrom, toArray } from "rxjs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { aiSdkModel } from "../../src/ai-sdk/index.js";
import { defineTool, ok, runAgent, streamAgent, type Message, type ModelEvent, type ModelRequest } from "../../src/index.js";
import { checkConversation, openai } from "../../src/providers/index.js";

const usage = { inputTokens: { total: 10, noCache: 7, cacheRead: 3, cacheWrite: undefined }, outputTokens: { total: 5, text: 3, reasoning: 2 } };
const finish = (unified: "stop" | "tool-calls" | "length" | "other" | "error"): LanguageModelV4StreamPart => ({
  type: "finish",
  usage,
  finishReason: { unified, raw: unified },
});
const echo = defineTool({ name: "echo", description: "Echo", schema: z.object({ n: z.number() }), handler: ({ n }) => ok({ n }) });

function streaming(...turns: LanguageModelV4StreamPart[][]): MockLanguageModelV4 {
  let n = 0;
  return new MockLanguageModelV4({
    doStream: async () => ({ stream: convertArrayToReadableStream(turns[n++] ?? [{ type: "text-delta", id: "t", delta: "end" }, finish("stop")]) }),
  });
}

function request(messages: readonly Message[] = [{ role: "user", content: "hi" }]): ModelRequest {
  return { messages, tools: [echo], turn: 0, signal: new AbortController().signal };
}

describe("aiSdkModel", () => {
  it("sends the conversation as the provider's prompt and the tools as function tools", async () => {
    const model = streaming([finish("stop")]);
    const messages: Message[] = [
      { role: "system", content: "Be brief." },
      { role: "user", content: "Echo 1 and 2" },
      {
        role: "assistant",
        content: "",
        toolCalls: [
          { id: "a", name: "echo", arguments: { n: 1 } },
          { id: "b", name: "echo", arguments: { n: 2 } },
        ],
      },
      { role: "tool", toolCallId: "a", name: "echo", content: '{"n":1}', isError: false },
      { role: "tool", toolCallId: "b", name: "echo", content: "down", isError: true },
      { role: "approval", toolCallId: "b", approved: true },
    ];
    await lastValueFrom(from(aiSdkModel(model, { callOptions: { temperature: 0 } })(request(messages))));
    const call = model.doStreamCalls[0];
    expect(call?.temperature).toBe(0);
    expect(call?.prompt).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: [{ type: "text", text: "Echo 1 and 2" }] },
      {
        role: "assistant",
        content: [
          { type: "tool-call", toolCallId: "a", toolName: "echo", input: { n: 1 } },
          { type: "tool-call", toolCallId: "b", toolName: "echo", input: { n: 2 } },
        ],
      },
      {
        role: "tool",
        content: [
          { type: "tool-result", toolCallId: "a", toolName: "echo", output: { type: "text", value: '{"n":1}' } },
          { type: "tool-result", toolCallId: "b", toolName: "echo", output: { type: "error-text", value: "down" } },
        ],
      },
    ]);
    expect(call?.tools).toEqual([{ type: "function", name: "echo", description: "Echo", inputSchema: expect.objectContaining({ type: "object" }) }]);
  });

  it("runs the loop on random streams of text, reasoning and tool-call deltas, and the conversation passes checkConversation", async () => {
    const turnArb = fc.record({
      text: fc.array(fc.string({ minLength: 1, maxLength: 5 }), { maxLength: 3 }),
      reasoning: fc.boolean(),
      calls: fc.array(fc.record({ n: fc.integer({ min: 0, max: 99 }), cut: fc.integer({ min: 0, max: 8 }) }), { maxLength: 3 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(turnArb, { minLength: 1, maxLength: 3 }), async (turns) => {
        let id = 0;
        const scripts = turns.map((t): LanguageModelV4StreamPart[] => {
          const parts: LanguageModelV4StreamPart[] = [
            { type: "stream-start", warnings: [] },
            { type: "response-metadata", id: "resp", modelId: "mock-1" },
          ];
          if (t.reasoning)
            parts.push(
              { type: "reasoning-start", id: "r" },
              { type: "reasoning-delta", id: "r", delta: "hmm" },
              { type: "reasoning-end", id: "r", providerMetadata: { anthropic: { signature: "s" } } },
            );
          if (t.text.length > 0)
            parts.push({ type: "text-start", id: "t" }, ...t.text.map((delta) => ({ type: "text-delta" as const, id: "t", delta })), {
              type: "text-end",
              id: "t",
            });
          for (const c of t.calls) {
            const callId = `call_${id++}`;
            const input = JSON.stringify({ n: c.n });
            const cut = Math.min(c.cut, input.length);
            parts.push(
              { type: "tool-input-start", id: callId, toolName: "echo" },
              { type: "tool-input-delta", id: callId, delta: input.slice(0, cut) },
              { type: "tool-input-delta", id: callId, delta: input.slice(cut) },
              { type: "tool-input-end", id: callId },
              { type: "tool-call", toolCallId: callId, toolName: "echo", input },
            );
          }
          parts.push(finish(t.calls.length > 0 ? "tool-calls" : "stop"));
          return parts;
        });
        const model = aiSdkModel(streaming(...scripts));
        const events = await lastValueFrom(streamAgent({ model, tools: [echo], messages: [{ role: "user", content: "go" }], maxTurns: 4 }).pipe(toArray()));
        const halted = events.at(-1);
        if (halted?.type !== "agent_halted") throw new Error("no halt");
        expect(checkConversation(openai.toChatMessages(halted.messages), "openai-chat", { pendingCalls: true })).toEqual([]);
        const ran = turns.slice(0, 4);
        const assistants = halted.messages.filter((m) => m.role === "assistant");
        ran.forEach((t, i) => {
          if (i >= assistants.length) return;
          expect(assistants[i]?.content).toBe(t.text.join(""));
          // The reasoning part, with the provider metadata the next request gives back.
          expect((assistants[i] as { reasoning?: unknown }).reasoning).toEqual(
            t.reasoning ? [{ text: "hmm", provider: "ai-sdk", data: { anthropic: { signature: "s" } } }] : undefined,
          );
          expect((assistants[i] as { toolCalls?: { arguments: unknown }[] }).toolCalls?.map((c) => c.arguments) ?? []).toEqual(
            t.calls.map((c) => ({ n: c.n })),
          );
        });
        const inputs = events.filter((e) => e.type === "tool_input" && e.state === "complete");
        expect(inputs.length).toBe(ran.slice(0, assistants.length).reduce((sum, t) => sum + t.calls.length, 0));
        expect(halted.usage?.inputTokens).toBe(10 * assistants.length);
      }),
      { numRuns: 100 },
    );
  });

  it("reports usage with the response's id and model, and maps each finish reason", async () => {
    const read = async (part: LanguageModelV4StreamPart) => lastValueFrom(from(aiSdkModel(streaming([part]))(request())).pipe(toArray()));
    expect(await read(finish("length"))).toEqual([
      { type: "usage", usage: { inputTokens: 10, outputTokens: 5, cachedInputTokens: 3, reasoningTokens: 2 } },
      { type: "finish", reason: "length" },
    ]);
    expect((await read(finish("other"))).at(-1)).toEqual({ type: "finish", reason: "stop" });
    expect((await read(finish("error"))).at(-1)).toMatchObject({ type: "finish", reason: "error", error: expect.any(Error) });
    const withId = await lastValueFrom(
      from(aiSdkModel(streaming([{ type: "response-metadata", id: "r1", modelId: "m1" }, finish("stop")]))(request())).pipe(toArray()),
    );
    expect(withId[0]).toMatchObject({ type: "usage", responseId: "r1", responseModel: "m1" });
  });

  it("ends the turn with error on a provider's error part, a rejected doStream, or a stream cut short", async () => {
    const boom = new Error("overloaded");
    const parts = await lastValueFrom(
      from(
        aiSdkModel(
          streaming([
            { type: "text-delta", id: "t", delta: "a" },
            { type: "error", error: boom },
          ]),
        )(request()),
      ).pipe(toArray()),
    );
    expect(parts).toEqual([
      { type: "text_delta", text: "a" },
      { type: "finish", reason: "error", error: boom },
    ]);
    const rejected = new MockLanguageModelV4({
      doStream: async () => {
        throw boom;
      },
    });
    const run = await runAgent({ model: aiSdkModel(rejected), tools: [echo], messages: [{ role: "user", content: "hi" }] });
    expect(run).toMatchObject({ haltedReason: "error", metadata: { error: boom } });
    const cut = await lastValueFrom(from(aiSdkModel(streaming([{ type: "text-delta", id: "t", delta: "a" }]))(request())).pipe(toArray()));
    expect(cut.at(-1)).toMatchObject({ type: "finish", reason: "error" });
  });

  it("passes the run's signal as abortSignal, and cancels the provider's stream on unsubscribe", async () => {
    let cancelled = false;
    const model = new MockLanguageModelV3({
      doStream: async () => ({
        stream: new ReadableStream({
          start(controller) {
            controller.enqueue({ type: "text-delta", id: "t", delta: "first" });
          },
          cancel() {
            cancelled = true;
          },
        }),
      }),
    });
    const req = request();
    const first: ModelEvent = await firstValueFrom(from(aiSdkModel(model)(req)));
    expect(first).toEqual({ type: "text_delta", text: "first" });
    await new Promise((r) => setTimeout(r, 10));
    expect(cancelled).toBe(true);
    expect(model.doStreamCalls[0]?.abortSignal).toBe(req.signal);
  });

  it("sends back its own reasoning as reasoning parts with their provider options, and no other provider's", async () => {
    const model = streaming([finish("stop")]);
    const messages: Message[] = [
      { role: "user", content: "hi" },
      {
        role: "assistant",
        content: "Hello.",
        reasoning: [
          { text: "greet", provider: "ai-sdk", data: { anthropic: { signature: "s" } } },
          { text: "plain" },
          { text: "theirs", provider: "anthropic", data: { type: "thinking", signature: "x" } },
        ],
      },
      { role: "user", content: "again" },
    ];
    await lastValueFrom(from(aiSdkModel(model)(request(messages))));
    expect(model.doStreamCalls[0]?.prompt[1]).toEqual({
      role: "assistant",
      content: [
        { type: "reasoning", text: "greet", providerOptions: { anthropic: { signature: "s" } } },
        { type: "text", text: "Hello." },
      ],
    });
  });

  it("refuses what is not a language model of the v3 or v4 specification", () => {
    expect(() => aiSdkModel({} as never)).toThrow(/`model` of `aiSdkModel`/);
    expect(() => aiSdkModel({ specificationVersion: "v2", doStream: () => undefined } as never)).toThrow(/v3 or v4 specification, got v2/);
  });
});
