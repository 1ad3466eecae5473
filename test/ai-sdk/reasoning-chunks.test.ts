import { readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import { lastValueFrom, toArray } from "rxjs";
import { describe, expect, it } from "vitest";
import { fromUIMessages, toUIMessageChunks } from "../../src/ai-sdk/index.js";
import { streamAgent, type Model, type ModelEvent } from "../../src/index.js";

// Issue 31: the model's reasoning reaches useChat as reasoning parts carrying the provider's
// state, comes back to the loop from the page, and a model_reply tells the page why the model stopped.

const signed = { text: "Think it over.", provider: "anthropic", data: { type: "thinking", signature: "sig" } };

async function chunksOf(model: Model): Promise<UIMessageChunk[]> {
  return lastValueFrom(streamAgent({ model, tools: [], messages: [{ role: "user", content: "Hi" }] }).pipe(toUIMessageChunks(), toArray()));
}

function streamOf(chunks: readonly UIMessageChunk[]): ReadableStream<UIMessageChunk> {
  return new ReadableStream({
    start(controller) {
      for (const c of chunks) controller.enqueue(c);
      controller.close();
    },
  });
}

describe("toUIMessageChunks and reasoning", () => {
  const model: Model = () =>
    [
      { type: "reasoning_delta", text: "Think " },
      { type: "reasoning", part: signed },
      { type: "text_delta", text: "Hello." },
      { type: "finish", reason: "stop" },
    ] satisfies ModelEvent[];

  it("streams a reasoning part before the text, its provider state on reasoning-end", async () => {
    const chunks = await chunksOf(model);
    expect(chunks.filter((c) => c.type.startsWith("reasoning") || c.type.startsWith("text"))).toEqual([
      { type: "reasoning-start", id: "reasoning-0" },
      { type: "reasoning-delta", id: "reasoning-0", delta: "Think " },
      { type: "reasoning-delta", id: "reasoning-0", delta: "it over." },
      { type: "reasoning-end", id: "reasoning-0", providerMetadata: { toolrx: { provider: "anthropic", data: { type: "thinking", signature: "sig" } } } },
      { type: "text-start", id: "text-1" },
      { type: "text-delta", id: "text-1", delta: "Hello." },
      { type: "text-end", id: "text-1" },
    ]);
  });

  it("gives the page the model's finish reason as message metadata when the model is done", async () => {
    const chunks = await chunksOf(model);
    const metadata = chunks.filter((c) => c.type === "message-metadata");
    expect(metadata).toEqual([{ type: "message-metadata", messageMetadata: { modelReply: { turn: 0, finishReason: "stop" } } }]);
    // It comes after the model's words and before the step ends.
    const at = chunks.indexOf(metadata[0] as UIMessageChunk);
    expect(chunks[at - 1]?.type).toBe("text-delta");
    expect(chunks[at + 1]?.type).toBe("text-end");
  });

  it("reads back from the page as the turn's reasoning, provider state included", async () => {
    let page: UIMessage | undefined;
    for await (const m of readUIMessageStream({ stream: streamOf(await chunksOf(model)), terminateOnError: true })) page = m;
    const message = page as UIMessage;
    expect(message.metadata).toEqual({ modelReply: { turn: 0, finishReason: "stop" }, haltedReason: "completed" });
    expect(fromUIMessages([{ id: "u", role: "user", parts: [{ type: "text", text: "Hi" }] }, message])).toEqual([
      { role: "user", content: "Hi" },
      { role: "assistant", content: "Hello.", reasoning: [signed] },
    ]);
  });
});
