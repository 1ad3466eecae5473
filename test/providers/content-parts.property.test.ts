import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ContentPart, Message } from "../../src/index.js";
import { anthropic, checkConversation, openai } from "../../src/providers/index.js";

const RUNS = Number(process.env.TOOLRX_PROPERTY_RUNS ?? 200);
const base64 = fc.uint8Array({ minLength: 1, maxLength: 48 }).map((bytes) => Buffer.from(bytes).toString("base64"));
const text = fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s.trim() !== "" && !s.includes("["));
/** Parts every provider takes as themselves: JPEG/PNG/GIF/WebP images (bytes or https URL), PDFs as bytes. */
const part: fc.Arbitrary<ContentPart> = fc.oneof(
  fc.record({ type: fc.constant("image" as const), mediaType: fc.constantFrom("image/png", "image/jpeg", "image/gif", "image/webp"), data: base64 }),
  fc.record({ type: fc.constant("image" as const), url: fc.webUrl({ validSchemes: ["https"] }) }),
  fc.record({ type: fc.constant("file" as const), mediaType: fc.constant("application/pdf"), data: base64, name: text }),
);
const conversation = fc
  .record({ words: text, userParts: fc.array(part, { minLength: 1, maxLength: 4 }), result: text, toolParts: fc.array(part, { maxLength: 4 }) })
  .map(({ words, userParts, result, toolParts }): Message[] => [
    { role: "user", content: words, parts: userParts },
    { role: "assistant", content: "", toolCalls: [{ id: "call_1", name: "look", arguments: {} }] },
    {
      role: "tool",
      toolCallId: "call_1",
      name: "look",
      content: result,
      isError: false,
      ...(toolParts.length === 0 ? {} : { parts: toolParts }),
    },
  ]);

describe("content parts, for any conversation of parts every provider takes", () => {
  it("Responses: written as the API accepts them, and read back unchanged", () => {
    fc.assert(
      fc.property(conversation, (messages) => {
        const items = openai.toResponsesInput(messages);
        expect(checkConversation(items, "openai-responses")).toEqual([]);
        const back = openai.fromResponsesInput(items);
        expect(back[0]).toEqual(messages[0]);
        expect(back[2]).toEqual(messages[2]);
      }),
      { numRuns: RUNS },
    );
  });

  it("Anthropic: written as the API accepts them, and read back unchanged but for a PDF's name", () => {
    const unnamed = (parts: readonly ContentPart[] | undefined) =>
      parts?.map((p) => (p.type === "file" ? { type: p.type, mediaType: p.mediaType, data: p.data } : p));
    fc.assert(
      fc.property(conversation, (messages) => {
        const { messages: out } = anthropic.toMessages(messages);
        expect(checkConversation(out, "anthropic")).toEqual([]);
        const back = anthropic.fromMessages(out);
        for (const i of [0, 2]) {
          const { parts, ...rest } = messages[i] as Message & { parts?: ContentPart[] };
          expect(back[i]).toEqual(parts === undefined ? rest : { ...rest, parts: unnamed(parts) });
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("Chat Completions: a user's parts read back unchanged; a tool message's are markers, one per part", () => {
    fc.assert(
      fc.property(conversation, (messages) => {
        const out = openai.toChatMessages(messages);
        expect(checkConversation(out, "openai-chat")).toEqual([]);
        expect(openai.fromChatMessages(out)[0]).toEqual(messages[0]);
        const tool = out[2] as { content: string };
        const parts = (messages[2] as { parts?: ContentPart[] }).parts ?? [];
        expect(tool.content.split("\n").filter((line) => /^\[(image|file): /.test(line))).toHaveLength(parts.length);
      }),
      { numRuns: RUNS },
    );
  });
});
