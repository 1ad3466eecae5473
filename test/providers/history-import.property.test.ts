/**
 * Each importer is the inverse of its converter: a conversation converted and imported back comes
 * back unchanged, and an importer given anything at all answers messages or a TypeError.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Message, ToolMessage } from "../../src/tool/message.js";
import type { ToolCall } from "../../src/tool/tool-call.js";
import { anthropic, checkConversation, openai } from "../../src/providers/index.js";

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
