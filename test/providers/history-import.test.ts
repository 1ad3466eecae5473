/**
 * History parsers never change who speaks, and a whole stored conversation imports back into
 * toolrx's form: each importer is the inverse of its converter.
 */
import { describe, expect, it } from "vitest";
import { anthropic, openai } from "../../src/providers/index.js";

describe("openai.fromChatMessage", () => {
  it.each(["user", "system", "tool", "developer"])("refuses a %s message instead of calling it an assistant's", (role) => {
    expect(() => openai.fromChatMessage({ role, content: "Hello" })).toThrow(
      new TypeError(
        `Expected \`openai.fromChatMessage\` to get an assistant message, got a "${role}" message: use \`openai.fromChatMessages(history)\` for a whole conversation`,
      ),
    );
  });

  it("still reads a completion and an assistant message", () => {
    expect(openai.fromChatMessage({ choices: [{ message: { role: "assistant", content: "Hi" } }] })).toEqual({ role: "assistant", content: "Hi" });
    expect(openai.fromChatMessage({ content: "Hi" })).toEqual({ role: "assistant", content: "Hi" });
  });
});

describe("anthropic.fromMessage", () => {
  it("refuses a user message of tool results instead of returning an empty assistant message", () => {
    const toolResults = { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "21" }] };
    expect(() => anthropic.fromMessage(toolResults)).toThrow(/got a "user" message: use `anthropic.fromMessages\(history\)`/);
    expect(() => anthropic.fromMessage(toolResults.content)).toThrow(/got content with `tool_result` blocks/);
  });
});

describe("openai.fromChatMessages", () => {
  it("imports a stored Chat history: roles kept, calls parsed, each tool message named after its call", () => {
    expect(
      openai.fromChatMessages([
        { role: "developer", content: [{ type: "text", text: "Be brief." }] },
        { role: "user", content: "Weather in Paris?" },
        { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } }] },
        { role: "tool", tool_call_id: "call_1", content: '{"tempC":21}' },
        { role: "assistant", content: null, refusal: "I can't help with that." },
      ]),
    ).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "Weather in Paris?" },
      { role: "assistant", content: "", toolCalls: [{ id: "call_1", name: "weather", arguments: { city: "Paris" }, rawArguments: '{"city":"Paris"}' }] },
      { role: "tool", toolCallId: "call_1", name: "weather", content: '{"tempC":21}', isError: false },
      { role: "assistant", content: "I can't help with that." },
    ]);
  });

  it("refuses what a toolrx conversation cannot hold, naming the message", () => {
    expect(() => openai.fromChatMessages([{ role: "user", content: [{ type: "input_audio", input_audio: { data: "AAAA", format: "wav" } }] }])).toThrow(
      new TypeError(
        'Expected part 0 of message 0 of `openai.fromChatMessages` to be text, an image or a file, got a "input_audio" part: toolrx has no content part for it',
      ),
    );
    expect(() => openai.fromChatMessages([{ role: "tool", tool_call_id: "c9", content: "x" }])).toThrow(/answer to "c9", which no earlier message called/);
    expect(() => openai.fromChatMessages([{ role: "function", name: "f", content: "x" }])).toThrow(/`role` of message 0 .* got "function"/);
  });
});

describe("openai.fromResponsesInput", () => {
  it("imports stored input: reasoning kept whole on the turn it leads, an assistant's text and its calls as one turn, outputs as tool messages", () => {
    expect(
      openai.fromResponsesInput([
        { role: "user", content: [{ type: "input_text", text: "Weather in Paris?" }] },
        { type: "reasoning", id: "rs_1", summary: [] },
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "Checking.", annotations: [] }] },
        { type: "function_call", call_id: "call_1", name: "weather", arguments: '{"city":"Paris"}' },
        { type: "function_call_output", call_id: "call_1", output: '{"tempC":21}' },
      ]),
    ).toEqual([
      { role: "user", content: "Weather in Paris?" },
      {
        role: "assistant",
        content: "Checking.",
        reasoning: [{ text: "", provider: "openai-responses", data: { type: "reasoning", id: "rs_1", summary: [] } }],
        toolCalls: [{ id: "call_1", name: "weather", arguments: { city: "Paris" }, rawArguments: '{"city":"Paris"}' }],
      },
      { role: "tool", toolCallId: "call_1", name: "weather", content: '{"tempC":21}', isError: false },
    ]);
  });

  it("refuses an item the client was to answer, which it has no place for", () => {
    expect(() => openai.fromResponsesInput([{ type: "computer_call", id: "cu_1", call_id: "c1", status: "completed" }])).toThrow(
      new TypeError(
        'Expected item 0 of `openai.fromResponsesInput` to be a message, a function call or its output, got a "computer_call" item: toolrx\'s conversation has no place for it',
      ),
    );
    expect(() => openai.fromResponsesInput([{ type: "tool_search_call", execution: "client", call_id: "ts_1", arguments: {} }])).toThrow(
      /"tool_search_call" item/,
    );
  });
});

describe("anthropic.fromMessages", () => {
  it("imports a stored conversation: system first, tool results as tool messages before the user's words, thinking kept as reasoning", () => {
    expect(
      anthropic.fromMessages({
        system: "Be brief.",
        messages: [
          { role: "user", content: "Weather in Paris?" },
          {
            role: "assistant",
            content: [
              { type: "thinking", thinking: "…", signature: "s" },
              { type: "tool_use", id: "toolu_1", name: "weather", input: { city: "Paris" } },
            ],
          },
          {
            role: "user",
            content: [
              { type: "tool_result", tool_use_id: "toolu_1", content: [{ type: "text", text: "down" }], is_error: true },
              { type: "text", text: "And Oslo?" },
            ],
          },
        ],
      }),
    ).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "Weather in Paris?" },
      {
        role: "assistant",
        content: "",
        reasoning: [{ text: "…", provider: "anthropic", data: { type: "thinking", signature: "s" } }],
        toolCalls: [{ id: "toolu_1", name: "weather", arguments: { city: "Paris" } }],
      },
      { role: "tool", toolCallId: "toolu_1", name: "weather", content: "down", isError: true },
      { role: "user", content: "And Oslo?" },
    ]);
  });

  it("refuses an image and a system message, naming the message", () => {
    expect(() => anthropic.fromMessages([{ role: "user", content: [{ type: "image", source: {} }] }])).toThrow(
      /part 0 of message 0 of `anthropic.fromMessages` to be text/,
    );
    expect(() => anthropic.fromMessages([{ role: "system", content: "x" }])).toThrow(
      /`role` of message 0 of `anthropic.fromMessages` to be "user" or "assistant", got "system"/,
    );
  });
});
