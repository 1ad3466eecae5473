import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ModelEventError, ok, runAgent, streamAgent, type AgentOptions, type ModelEvent } from "../../../src/index.js";
import { scriptedModel } from "../../../src/testing/index.js";
import { finish, text, toolCall, user } from "../../support/agent-helpers.js";

const question = [user("hi")];
const echo = defineTool({ name: "echo", description: "", schema: z.object({ text: z.string() }), handler: ({ text }) => ok(text) });
const base: AgentOptions = { model: () => [finish("stop")], tools: [echo], messages: question };

describe("options are checked up front", () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ["model not a function", { model: "gpt" }, 'Expected `model` to be a function (request) => ObservableInput<ModelEvent>, got "gpt"'],
    ["tools neither a list nor a resolver", { tools: "echo" }, 'Expected `tools` to be an array of tools or a ToolResolver, got "echo"'],
    ["a tool without a name", { tools: [{}] }, "Expected tool at index 0 to be a tool with a `name`"],
    ["messages not an array", { messages: "hi" }, 'Expected `messages` to be an array of messages, got "hi"'],
    [
      "a message with an unknown role",
      { messages: [{ role: "bot", content: "x" }] },
      'Expected `messages[0].role` to be "system", "user", "assistant", "tool" or "approval", got "bot"',
    ],
    ["a user message without content", { messages: [{ role: "user" }] }, "Expected `messages[0].content` to be a string, got undefined"],
    [
      "a tool message without isError",
      { messages: [{ role: "tool", toolCallId: "c1", name: "x", content: "" }] },
      "Expected `messages[0].isError` to be a boolean",
    ],
    [
      "an assistant call without an id",
      { messages: [{ role: "assistant", content: "", toolCalls: [{ name: "x", arguments: {} }] }] },
      "In `messages[0].toolCalls`: Expected `id` of tool call at index 0",
    ],
    [
      "an assistant call whose providerState has no data",
      { messages: [{ role: "assistant", content: "", toolCalls: [{ id: "c1", name: "x", arguments: {}, providerState: { provider: "ai-sdk" } }] }] },
      "In `messages[0].toolCalls`: Expected `providerState` of tool call at index 0 to be { provider: string, data: object }",
    ],
    [
      "a text state ending past the text",
      { messages: [{ role: "assistant", content: "hi", textState: [{ provider: "ai-sdk", data: {}, textEnd: 3 }] }] },
      "Expected `messages[0].textState[0].textEnd` to be an integer from 0 to 2 (the message's text length), got 3",
    ],
    [
      "text states out of order",
      {
        messages: [
          {
            role: "assistant",
            content: "hi",
            textState: [
              { provider: "ai-sdk", data: {}, textEnd: 2 },
              { provider: "ai-sdk", data: {}, textEnd: 1 },
            ],
          },
        ],
      },
      "Expected `messages[0].textState[1].textEnd` to be an integer from 2 to 2",
    ],
    ["an approval without approved", { messages: [{ role: "approval", toolCallId: "c1" }] }, "Expected `messages[0].approved` to be a boolean"],
    ["maxTurns 0", { maxTurns: 0 }, "Expected `maxTurns` to be a positive integer, got 0"],
    ["maxTurns 1.5", { maxTurns: 1.5 }, "Expected `maxTurns` to be a positive integer, got 1.5"],
    ["maxTurns as a string", { maxTurns: "3" }, 'Expected `maxTurns` to be a positive integer, got "3"'],
    ["haltWhen not a function", { haltWhen: true }, "Expected `haltWhen` to be a function (turn) => boolean, got true"],
    ["mode unknown", { mode: "semi" }, 'Expected `mode` to be "auto" or "manual", got "semi"'],
    ["a RunOptions option", { toolTimeout: -1 }, "Expected `toolTimeout` to be Infinity or a positive number"],
    ["signal not a signal", { signal: {} }, "Expected `signal` to be an AbortSignal"],
  ];

  it.each(cases)("%s: streamAgent throws a TypeError naming it, runAgent rejects with it", async (_name, patch, message) => {
    const options = { ...base, ...patch } as AgentOptions;
    expect(() => streamAgent(options)).toThrow(TypeError);
    expect(() => streamAgent(options)).toThrow(message);
    await expect(runAgent(options)).rejects.toThrow(message);
  });

  it("keeps a snapshot of the conversation: a change to the caller's array after the call does not reach the run", async () => {
    const messages = [user("hi")];
    const model = scriptedModel([[finish("stop")]]);
    const events$ = streamAgent({ model, tools: [echo], messages });
    messages.push(user("sneaked in"));
    events$.subscribe();
    expect(model.requests[0]?.messages).toEqual([user("hi")]);
  });

  it("defineTool checks needsApproval", () => {
    expect(() => defineTool({ name: "t", description: "", schema: z.object({}), needsApproval: "yes" as never })).toThrow(
      'Expected `needsApproval` of tool "t" to be a boolean or a function, got "yes"',
    );
  });
});

describe("a model that sends what the loop cannot act on ends it with error, saying what it sent", () => {
  const cases: [string, unknown[], RegExp][] = [
    ["an event that is not an object", [42], /turn 0: the model sent an event that is not an object: 42/],
    ["an event of unknown type", [{ type: "thinking", text: "hm" }], /the model sent an event of unknown type: \{"type":"thinking","text":"hm"\}/],
    ["text that is not a string", [{ type: "text_delta", text: 1 }], /a text_delta whose `text` is not a string/],
    [
      "a tool call without an id",
      [{ type: "tool_call", call: { name: "echo", arguments: {} } }],
      /a malformed tool call \(Expected `id` of tool call at index 0 to be a non-empty string, got undefined\): \{"type":"tool_call","call":\{"name":"echo","arguments":\{\}\}\}/,
    ],
    [
      "a tool call without arguments",
      [{ type: "tool_call", call: { id: "c1", name: "echo" } }],
      /Expected `arguments` of tool call at index 0 to be an object/,
    ],
    ["a duplicate call id", [toolCall("c1", "echo", { text: "a" }), toolCall("c1", "echo", { text: "b" })], /a second tool call with the id "c1"/],
    ["a finish with an unknown reason", [{ type: "finish", reason: "done" }], /a finish event with an unknown `reason`/],
    ["a text_state without data", [{ type: "text_state", provider: "ai-sdk" }], /a text_state without a string `provider` and an object `data`/],
    [
      "a call whose providerState is not an object",
      [{ type: "tool_call", call: { id: "c1", name: "echo", arguments: {}, providerState: "sig" } }],
      /Expected `providerState` of tool call at index 0 to be \{ provider: string, data: object \}, got "sig"/,
    ],
  ];

  it.each(cases)("%s", async (_name, events, message) => {
    const result = await runAgent({ ...base, model: () => events as ModelEvent[] });
    if (result.haltedReason !== "error") throw new Error(`ended with ${result.haltedReason}`);
    expect(result.metadata.error).toBeInstanceOf(ModelEventError);
    expect((result.metadata.error as Error).message).toMatch(message);
    expect(result.messages).toEqual(question); // the failed turn adds nothing
  });

  it("the same id in two different turns is fine: providers may number calls per turn", async () => {
    const model = scriptedModel([[toolCall("c1", "echo", { text: "a" })], [toolCall("c1", "echo", { text: "b" })], [text("ok"), finish("stop")]]);
    expect((await runAgent({ ...base, model })).haltedReason).toBe("completed");
  });
});
