import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anthropic, checkConversation, openai } from "../../src/providers/index.js";
import { sseOf } from "../../src/testing/server/provider-frames.js";
import { ANTHROPIC_FIRST, ANTHROPIC_REPLAYED, ANTHROPIC_SECOND, CHAT_SECOND, CHAT_USAGE, chatChunk, secondRequest } from "../support/round-trip.js";
import { startWireServer, type WireServer } from "../support/wire-server.js";

// toolrx's own provider models, through the official SDKs, against a local server streaming
// each API's format: the first reply's state is judged on the second request.
let server: WireServer;
beforeAll(async () => {
  server = await startWireServer();
});
afterAll(() => server.close());

const openaiClient = () => new OpenAI({ baseURL: `${server.origin}/v1`, apiKey: "test", maxRetries: 0 });

describe("openai.responsesModel", () => {
  it("sends back the reasoning item whole and the message and function_call items under their ids", async () => {
    const model = openai.responsesModel({ client: openaiClient(), model: "gpt-5", store: false, include: ["reasoning.encrypted_content"] });
    const body = await secondRequest(
      server,
      model,
      sseOf("responses", { reasoning: "Two cities.", text: "Checking.", calls: [{ id: "call_oslo", name: "weather", arguments: { city: "Oslo" } }] }, 1),
      sseOf("responses", { text: "Cold in Oslo." }, 2),
    );
    const input = body.input as unknown[];
    expect(input.slice(1)).toEqual([
      { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "Two cities." }], encrypted_content: "enc_1" },
      { type: "message", id: "msg_1", role: "assistant", status: "completed", content: [{ type: "output_text", text: "Checking.", annotations: [] }] },
      { type: "function_call", id: "fc_1_2", call_id: "call_oslo", name: "weather", arguments: '{"city":"Oslo"}' },
      { type: "function_call_output", call_id: "call_oslo", output: '{"city":"Oslo","tempC":21}' },
    ]);
    expect(checkConversation(input, "openai-responses")).toEqual([]);
  });
});

describe("anthropic.messagesModel", () => {
  it("sends back the signed thinking block and the redacted one", async () => {
    const model = anthropic.messagesModel({ client: new Anthropic({ baseURL: server.origin, apiKey: "test", maxRetries: 0 }), model: "claude-sonnet-4-5" });
    const body = await secondRequest(server, model, ANTHROPIC_FIRST, ANTHROPIC_SECOND);
    expect((body.messages as unknown[])[1]).toEqual(ANTHROPIC_REPLAYED);
    expect(checkConversation(body.messages as unknown[], "anthropic")).toEqual([]);
  });
});

describe("openai.chatModel", () => {
  it("sends back the text and the call under the id the model gave", async () => {
    const model = openai.chatModel({ client: openaiClient(), model: "gpt-test" });
    const body = await secondRequest(
      server,
      model,
      [
        chatChunk({ role: "assistant", content: "Checking." }),
        chatChunk({ tool_calls: [{ index: 0, id: "call_oslo", type: "function", function: { name: "weather", arguments: '{"city":"Oslo"}' } }] }),
        chatChunk({}, "tool_calls", CHAT_USAGE),
        { data: "[DONE]" },
      ],
      CHAT_SECOND,
    );
    expect((body.messages as unknown[])[1]).toEqual({
      role: "assistant",
      content: "Checking.",
      tool_calls: [{ id: "call_oslo", type: "function", function: { name: "weather", arguments: '{"city":"Oslo"}' } }],
    });
    expect(checkConversation(body.messages as unknown[], "openai-chat")).toEqual([]);
  });
});
