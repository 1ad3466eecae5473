import { describe, expect, it } from "vitest";
import type { ContentPart, Message } from "../../src/index.js";
import { anthropic, checkConversation, openai } from "../../src/providers/index.js";

// A 1×1 PNG and the first bytes of a PDF.
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const PDF = "JVBERi0xLjQK";
const image: ContentPart = { type: "image", mediaType: "image/png", data: PNG };
const pdf: ContentPart = { type: "file", mediaType: "application/pdf", data: PDF, name: "report.pdf" };
const linked: ContentPart = { type: "image", url: "https://example.com/cat.jpg" };

/** A user who sends a picture, a tool that answers with a chart and a PDF, and the model's reply. */
const conversation: Message[] = [
  { role: "system", content: "Be brief." },
  { role: "user", content: "What is in this picture?", parts: [image, linked] },
  { role: "assistant", content: "", toolCalls: [{ id: "call_1", name: "report", arguments: { q: "sales" } }] },
  { role: "tool", toolCallId: "call_1", name: "report", content: "the sales report", isError: false, parts: [image, pdf] },
  { role: "assistant", content: "A cat, and sales are up." },
];

describe("content parts through OpenAI Chat Completions", () => {
  const messages = openai.toChatMessages(conversation);

  it("sends a user's images as image_url parts (bytes as a data: URL) after the text", () => {
    expect(messages[1]).toEqual({
      role: "user",
      content: [
        { type: "text", text: "What is in this picture?" },
        { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } },
        { type: "image_url", image_url: { url: "https://example.com/cat.jpg" } },
      ],
    });
  });

  it("gives a tool message, which takes text only here, a marker for each part instead of dropping it", () => {
    expect(messages[3]).toEqual({
      role: "tool",
      tool_call_id: "call_1",
      content: "the sales report\n[image: image/png, 70 B]\n[file: report.pdf, application/pdf, 9 B]",
    });
    expect(openai.toToolMessages([conversation[3] as never])).toEqual([messages[3]]);
  });

  it("writes what Chat Completions accepts, and reads a user's parts back", () => {
    expect(checkConversation(messages, "openai-chat")).toEqual([]);
    const back = openai.fromChatMessages(messages);
    expect(back[1]).toEqual(conversation[1]);
  });

  it("sends a user's PDF as a file part; a file by URL, which the API cannot take, as a marker", () => {
    const [user] = openai.toChatMessages([{ role: "user", content: "", parts: [pdf, { type: "file", url: "https://x/a.pdf", name: "a.pdf" }] }]);
    expect(user).toEqual({
      role: "user",
      content: [
        { type: "file", file: { file_data: `data:application/pdf;base64,${PDF}`, filename: "report.pdf" } },
        { type: "text", text: "[file: a.pdf, https://x/a.pdf]" },
      ],
    });
  });
});

describe("content parts through the OpenAI Responses API", () => {
  const items = openai.toResponsesInput(conversation);

  it("sends images and files as input_image and input_file parts, in user messages and tool outputs alike", () => {
    expect(items[1]).toEqual({
      role: "user",
      content: [
        { type: "input_text", text: "What is in this picture?" },
        { type: "input_image", image_url: `data:image/png;base64,${PNG}`, detail: "auto" },
        { type: "input_image", image_url: "https://example.com/cat.jpg", detail: "auto" },
      ],
    });
    const output = items.find((item) => "type" in item && item.type === "function_call_output");
    expect(output).toEqual({
      type: "function_call_output",
      call_id: "call_1",
      output: [
        { type: "input_text", text: "the sales report" },
        { type: "input_image", image_url: `data:image/png;base64,${PNG}`, detail: "auto" },
        { type: "input_file", file_data: `data:application/pdf;base64,${PDF}`, filename: "report.pdf" },
      ],
    });
    expect(openai.toFunctionCallOutputs([conversation[3] as never])).toEqual([output]);
  });

  it("writes what the Responses API accepts, and reads every part back", () => {
    expect(checkConversation(items, "openai-responses")).toEqual([]);
    const back = openai.fromResponsesInput(items);
    // The user's parts and the tool's come back as they were (the call gains its rawArguments).
    expect(back[1]).toEqual(conversation[1]);
    expect(back[3]).toEqual(conversation[3]);
  });
});

describe("content parts through Anthropic Messages", () => {
  const { messages } = anthropic.toMessages(conversation);

  it("sends images and PDFs as image and document blocks, in user messages and tool results alike", () => {
    expect(messages[0]).toEqual({
      role: "user",
      content: [
        { type: "text", text: "What is in this picture?" },
        { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
        { type: "image", source: { type: "url", url: "https://example.com/cat.jpg" } },
      ],
    });
    expect(messages[2]).toEqual({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "call_1",
          is_error: false,
          content: [
            { type: "text", text: "the sales report" },
            { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
            { type: "document", source: { type: "base64", media_type: "application/pdf", data: PDF } },
          ],
        },
      ],
    });
  });

  it("writes what the Messages API accepts, and reads every part back (a PDF's name is not kept by the API)", () => {
    expect(checkConversation(messages, "anthropic")).toEqual([]);
    const back = anthropic.fromMessages({ system: "Be brief.", messages });
    const { name: _dropped, ...unnamed } = pdf as { name: string };
    expect(back.slice(1)).toEqual([conversation[1], conversation[2], { ...conversation[3], parts: [image, unnamed] }, conversation[4]]);
  });

  it("marks what the API cannot take: an SVG image, a Word file, a resource (with its text)", () => {
    const { messages: out } = anthropic.toMessages([
      {
        role: "user",
        content: "look",
        parts: [
          { type: "image", mediaType: "image/svg+xml", data: PNG },
          { type: "file", mediaType: "application/msword", data: PDF, name: "a.doc" },
          { type: "resource", uri: "file:///notes.txt", text: "remember the milk" },
        ],
      },
    ]);
    expect(out[0]?.content).toEqual([
      { type: "text", text: "look" },
      { type: "text", text: "[image: image/svg+xml, 70 B]" },
      { type: "text", text: "[file: a.doc, application/msword, 9 B]" },
      { type: "text", text: "[resource: file:///notes.txt]\nremember the milk" },
    ]);
  });
});

describe("a converter given bad parts", () => {
  it("refuses them, naming the message, before anything is sent", () => {
    const bad = [{ role: "user", content: "x", parts: [{ type: "image", mediaType: "image/png" }] }] as never;
    expect(() => openai.toChatMessages(bad)).toThrow(/part 0 of message 0 \(user\) of `openai.toChatMessages` to have exactly one of `data`/);
    expect(() => anthropic.toMessages([{ role: "system", content: "x", parts: [image] }] as never)).toThrow(/only user and tool messages carry content parts/);
  });
});
