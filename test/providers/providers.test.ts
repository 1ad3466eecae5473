import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ok, runToolCalls, toolJsonSchema } from "../../src/index.js";
import { anthropic, openai } from "../../src/providers/index.js";

const weather = defineTool({
  name: "weather",
  description: "Weather by city",
  schema: z.object({ city: z.string() }),
  handler: ({ city }) => (city === "Atlantis" ? { type: "error", reason: "no such city" } : ok({ city, tempC: 21 })),
});
const free = defineTool({ name: "now", description: "The time", schema: { properties: {} } as const, handler: () => ok("12:00") });

describe("openai (Chat Completions)", () => {
  const message = {
    role: "assistant" as const,
    content: null,
    tool_calls: [
      { id: "call_1", type: "function" as const, function: { name: "weather", arguments: '{"city":"Paris"}' } },
      { id: "call_2", type: "function" as const, function: { name: "weather", arguments: '{"city": "Par' } },
      { id: "call_3", type: "custom", custom: { name: "x", input: "y" } },
      { id: "call_4", type: "function" as const, function: { name: "weather", arguments: '{"city":"Atlantis"}' } },
    ],
  };

  it("parses function tool calls, keeping the raw text; malformed JSON keeps the call", () => {
    expect(openai.parseToolCalls(message)).toEqual([
      { id: "call_1", name: "weather", arguments: { city: "Paris" }, rawArguments: '{"city":"Paris"}' },
      { id: "call_2", name: "weather", arguments: {}, rawArguments: '{"city": "Par' },
      { id: "call_4", name: "weather", arguments: { city: "Atlantis" }, rawArguments: '{"city":"Atlantis"}' },
    ]);
    expect(openai.parseToolCalls({ tool_calls: null })).toEqual([]);
    expect(openai.parseToolCalls({ role: "assistant", content: "Hello" })).toEqual([]);
  });

  describe("when given the whole completion", () => {
    it("reads its first choice's message", () => {
      const completion = { id: "chatcmpl_1", choices: [{ index: 0, finish_reason: "tool_calls", message }] };
      expect(openai.parseToolCalls(completion)).toEqual(openai.parseToolCalls(message));
      expect(openai.parseToolCalls({ choices: [] })).toEqual([]);
    });
  });

  describe("when given something that is neither a completion nor its message", () => {
    it("throws a TypeError saying what to pass, instead of finding no calls", () => {
      expect(() => openai.parseToolCalls(message.tool_calls as never)).toThrow(
        new TypeError(
          "Expected `openai.parseToolCalls` to get a chat completion or its assistant message (`completion.choices[0].message`), got an array: pass the message, not its `tool_calls`",
        ),
      );
      expect(() => openai.parseToolCalls({} as never)).toThrow(/got an object with none of `choices`, `role`, `content`, `tool_calls`/);
      expect(() => openai.parseToolCalls(undefined as never)).toThrow(/got undefined$/);
      expect(() => openai.parseToolCalls({ object: "response", output: [] } as never)).toThrow(/use `openai.parseResponseOutput\(response\)`/);
      expect(() => openai.parseToolCalls({ type: "message", role: "assistant", content: [] } as never)).toThrow(
        /got an Anthropic message: use `anthropic.parseToolCalls\(message\)`/,
      );
    });
  });

  it("round trip: response in, tool messages out; the malformed call answers that its JSON was invalid", async () => {
    const result = await runToolCalls(openai.parseToolCalls(message), [weather]);
    const out = openai.toToolMessages(result);
    expect(out).toEqual([
      { role: "tool", tool_call_id: "call_1", content: '{"city":"Paris","tempC":21}' },
      { role: "tool", tool_call_id: "call_2", content: expect.stringMatching(/arguments were not valid JSON/) },
      { role: "tool", tool_call_id: "call_4", content: '{"error":"no such city"}' },
    ]);
    expect(openai.toToolMessages(result.messages)).toEqual(out);
  });

  it("describes tools as function tools with JSON Schema parameters", () => {
    expect(openai.toTools([weather])).toEqual([
      {
        type: "function",
        function: {
          name: "weather",
          description: "Weather by city",
          parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        },
      },
    ]);
  });
});

describe("openai (Responses API)", () => {
  const output = [
    { type: "reasoning", id: "rs_1", summary: [] },
    { type: "function_call", id: "fc_1", call_id: "call_a", name: "weather", arguments: '{"city":"Oslo"}', status: "completed" },
    { type: "message", id: "msg_1", role: "assistant", content: [] },
    { type: "function_call", id: "fc_2", call_id: "call_b", name: "now", arguments: "" },
  ];

  it("parses function_call items with call_id as the id, ignoring other items", () => {
    expect(openai.parseResponseOutput(output)).toEqual([
      {
        id: "call_a",
        name: "weather",
        arguments: { city: "Oslo" },
        rawArguments: '{"city":"Oslo"}',
        metadata: { itemId: "fc_1" },
        providerState: { provider: "openai-responses", data: { id: "fc_1" } },
      },
      {
        id: "call_b",
        name: "now",
        arguments: {},
        rawArguments: "",
        metadata: { itemId: "fc_2" },
        providerState: { provider: "openai-responses", data: { id: "fc_2" } },
      },
    ]);
  });

  it("takes the whole response as well as its output; a chat completion gets a TypeError naming the right parser", () => {
    expect(openai.parseResponseOutput({ object: "response", output } as never)).toEqual(openai.parseResponseOutput(output));
    expect(() => openai.parseResponseOutput({ choices: [] } as never)).toThrow(/got a chat completion: use `openai.parseToolCalls\(completion\)`/);
    expect(() => openai.parseResponseOutput({ id: "resp_1" } as never)).toThrow(/got an object without an `output` array/);
  });

  it("describes tools as flat function tools", () => {
    expect(openai.toResponsesTools([weather])).toEqual([
      {
        type: "function",
        name: "weather",
        description: "Weather by city",
        parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        strict: false,
      },
    ]);
  });

  it("round trip: output in, function_call_output items out", async () => {
    const result = await runToolCalls(openai.parseResponseOutput(output), [weather, free]);
    expect(openai.toFunctionCallOutputs(result)).toEqual([
      { type: "function_call_output", call_id: "call_a", output: '{"city":"Oslo","tempC":21}' },
      { type: "function_call_output", call_id: "call_b", output: "12:00" },
    ]);
  });
});

describe("anthropic (Messages API)", () => {
  const message = {
    role: "assistant" as const,
    content: [
      { type: "text", text: "Let me check." },
      { type: "tool_use", id: "toolu_1", name: "weather", input: { city: "Paris" } },
      { type: "tool_use", id: "toolu_2", name: "weather", input: { city: "Atlantis" } },
      { type: "tool_use", id: "toolu_3", name: "weather", input: "Paris" },
    ],
  };

  it("parses tool_use blocks; input that is not an object keeps the call", () => {
    expect(anthropic.parseToolCalls(message)).toEqual([
      { id: "toolu_1", name: "weather", arguments: { city: "Paris" } },
      { id: "toolu_2", name: "weather", arguments: { city: "Atlantis" } },
      { id: "toolu_3", name: "weather", arguments: {}, rawArguments: '"Paris"' },
    ]);
    expect(anthropic.parseToolCalls({ content: "just text" })).toEqual([]);
  });

  it("takes the reply's content as well as the whole reply", () => {
    expect(anthropic.parseToolCalls(message.content)).toEqual(anthropic.parseToolCalls(message));
  });

  it("throws a TypeError saying what to pass for anything else, instead of finding no calls", () => {
    expect(() => anthropic.parseToolCalls({ choices: [] } as never)).toThrow(
      new TypeError(
        "Expected `anthropic.parseToolCalls` to get a Messages API message or its `content`, got an OpenAI chat completion: use `openai.parseToolCalls(completion)`",
      ),
    );
    expect(() => anthropic.parseToolCalls({ role: "assistant", tool_calls: [] } as never)).toThrow(/got an OpenAI chat message/);
    expect(() => anthropic.parseToolCalls([1, 2] as never)).toThrow(/not all content blocks/);
    expect(() => anthropic.parseToolCalls(null as never)).toThrow(/got null$/);
  });

  it("round trip: one user message of tool_result blocks, errors flagged is_error", async () => {
    const result = await runToolCalls(anthropic.parseToolCalls(message), [weather]);
    expect(anthropic.toToolResultMessage(result)).toEqual({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "toolu_1", content: '{"city":"Paris","tempC":21}', is_error: false },
        { type: "tool_result", tool_use_id: "toolu_2", content: '{"error":"no such city"}', is_error: true },
        { type: "tool_result", tool_use_id: "toolu_3", content: expect.stringMatching(/not valid JSON: expected an object/), is_error: true },
      ],
    });
  });

  it("describes tools with an object input_schema", () => {
    expect(anthropic.toTools([weather, free])).toEqual([
      { name: "weather", description: "Weather by city", input_schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
      { name: "now", description: "The time", input_schema: { type: "object", properties: {} } },
    ]);
  });
});

describe("tool descriptions of tools that are not from defineTool", () => {
  const withDefaults = defineTool({
    name: "forecast",
    description: "Forecast",
    schema: z.object({ city: z.string(), days: z.number().int().default(1) }),
  });

  it("a spread tool (which loses the non-enumerable toJSON) is described as the tool itself, zod defaults still optional", () => {
    expect(openai.toTools([{ ...withDefaults }])).toEqual(openai.toTools([withDefaults]));
    expect(anthropic.toTools([{ ...withDefaults }])).toEqual(anthropic.toTools([withDefaults]));
    expect(openai.toResponsesTools([{ ...withDefaults }])[0]?.parameters).toEqual(toolJsonSchema(withDefaults));
  });

  it("a plain-object tool with a JSON Schema is described with that schema", () => {
    const schema = { type: "object", properties: { q: { type: "string" } }, required: ["q"] } as const;
    expect(openai.toTools([{ name: "search", description: "Search", schema, manual: false, metadata: {} }])[0]?.function.parameters).toEqual(schema);
  });
});
