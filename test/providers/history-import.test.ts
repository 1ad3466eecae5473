/**
 * History parsers never change who speaks, and a whole stored conversation imports back into
 * toolrx's form: each importer is the inverse of its converter.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Message, ToolMessage } from "../../src/tool/message.js";
import type { ToolCall } from "../../src/tool/tool-call.js";
import { anthropic, checkConversation, openai } from "../../src/providers/index.js";

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

// --- each importer undoes its converter -----------------------------------------------------

const text = fc.string({ minLength: 1, maxLength: 8 }).filter((s) => s.trim() !== "");
const args = fc.dictionary(fc.constantFrom("city", "day", "n"), fc.oneof(fc.string({ maxLength: 5 }), fc.integer()), { maxKeys: 2 });
const call = (id: string): fc.Arbitrary<ToolCall> =>
  fc.oneof(
    args.map((a) => ({ id, name: "weather", arguments: a, rawArguments: JSON.stringify(a) })),
    fc.constantFrom('{"city": "Os', "[1]").map((raw) => ({ id, name: "weather", arguments: {}, rawArguments: raw })),
  );

/**
 * A conversation in the form every converter keeps as it is: a system prompt, then user and
 * assistant turns that alternate (tool messages speak for the user), every call answered in
 * order, no empty text but a turn's text beside its calls.
 */
const conversation: fc.Arbitrary<Message[]> = fc
  .tuple(
    fc.option(text, { nil: undefined }),
    text,
    fc.array(
      fc.tuple(
        fc.option(text, { nil: undefined }),
        fc.nat({ max: 3 }),
        fc.option(text, { nil: undefined }),
        fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
      ),
      { maxLength: 5 },
    ),
  )
  .chain(([system, first, turns]) => {
    let next = 0;
    const shaped = turns.map(([said, count, user, errors]) => {
      const ids = Array.from({ length: count }, () => `call_${next++}`);
      return fc.tuple(...ids.map(call)).map((calls) => ({ said: said ?? (calls.length > 0 ? "" : "…"), calls, user, errors }));
    });
    return fc.tuple(...shaped).map((ts) => {
      const out: Message[] = [];
      if (system !== undefined) out.push({ role: "system", content: system });
      out.push({ role: "user", content: first });
      ts.forEach(({ said, calls, user, errors }, t) => {
        out.push(calls.length > 0 ? { role: "assistant", content: said, toolCalls: calls } : { role: "assistant", content: said });
        calls.forEach((c, j) => {
          out.push({ role: "tool", toolCallId: c.id, name: c.name, content: `result ${j}`, isError: errors[j] ?? false } satisfies ToolMessage);
        });
        // After a turn without calls the user must speak before the model does again.
        if (user !== undefined || (calls.length === 0 && t < ts.length - 1)) out.push({ role: "user", content: user ?? "go on" });
      });
      return out;
    });
  });

/** Chat and Responses have no error flag on a tool answer. */
const withoutErrorFlag = (messages: readonly Message[]) => messages.map((m) => (m.role === "tool" ? { ...m, isError: false } : m));

function isObjectText(raw: string | undefined): boolean {
  try {
    const value: unknown = JSON.parse(raw ?? "");
    return typeof value === "object" && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** Anthropic keeps a call's input as an object: the text is kept only when it was not one. */
const objectInputs = (messages: readonly Message[]) =>
  messages.map((m) =>
    m.role === "assistant" && m.toolCalls !== undefined
      ? { ...m, toolCalls: m.toolCalls.map(({ rawArguments, ...c }) => (isObjectText(rawArguments) ? c : { ...c, rawArguments })) }
      : m,
  );

describe("importing what a converter wrote", () => {
  it("gives the conversation back, and what the converter wrote passes the provider's rules", () => {
    fc.assert(
      fc.property(conversation, (messages) => {
        const chat = openai.toChatMessages(messages);
        expect(checkConversation(chat, "openai-chat")).toEqual([]);
        expect(openai.fromChatMessages(chat)).toEqual(withoutErrorFlag(messages));

        const input = openai.toResponsesInput(messages);
        expect(checkConversation(input, "openai-responses")).toEqual([]);
        expect(openai.fromResponsesInput(input)).toEqual(withoutErrorFlag(messages));

        const request = anthropic.toMessages(messages);
        expect(checkConversation(request.messages, "anthropic")).toEqual([]);
        expect(anthropic.fromMessages(request)).toEqual(objectInputs(messages));
      }),
      { numRuns: 500 },
    );
  });
});

describe("importing anything at all", () => {
  it("either gives toolrx messages or throws a TypeError, never another error", () => {
    const any = fc.anything({ withNullPrototype: true, withBigInt: true, withMap: true });
    const part = fc.record(
      {
        type: fc.oneof(fc.constantFrom("text", "input_text", "tool_use", "tool_result", "function_call", "function_call_output", "refusal"), any),
        text: any,
        id: any,
        name: any,
        input: any,
        call_id: any,
        arguments: any,
        output: any,
        tool_use_id: any,
        content: any,
      },
      { requiredKeys: [] },
    );
    const message = fc.record(
      {
        role: fc.oneof(fc.constantFrom("user", "assistant", "tool", "system", "developer"), any),
        type: any,
        content: fc.oneof(any, fc.array(part, { maxLength: 3 })),
        tool_calls: any,
        tool_call_id: any,
        call_id: any,
        name: any,
        arguments: any,
      },
      { requiredKeys: [] },
    );
    const importers = [openai.fromChatMessages, openai.fromResponsesInput, anthropic.fromMessages as (x: readonly unknown[]) => Message[]];
    fc.assert(
      fc.property(fc.array(fc.oneof(message, part, any), { maxLength: 5 }), (history) => {
        for (const importer of importers) {
          try {
            importer(history);
          } catch (error) {
            expect(error).toBeInstanceOf(TypeError);
          }
        }
      }),
      { numRuns: 1000 },
    );
  });
});
