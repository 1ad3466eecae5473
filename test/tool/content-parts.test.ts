import { describe, expect, it } from "vitest";
import { z } from "zod";
import { checkParts, defineTool, ok, partMarker, runToolCalls, streamToolCalls, type ContentPart } from "../../src/index.js";
import { lastValueFrom, toArray } from "rxjs";
import { must } from "../support/must.js";

// A 1×1 PNG.
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const image: ContentPart = { type: "image", mediaType: "image/png", data: PNG };
const call = (name: string) => ({ id: `c-${name}`, name, arguments: {} });

describe("checkParts", () => {
  it("accepts each kind of part and returns a frozen copy the caller cannot change afterwards", () => {
    const given: ContentPart[] = [
      { type: "text", text: "see:" },
      image,
      { type: "image", url: "https://example.com/a.png" },
      { type: "file", mediaType: "application/pdf", data: "JVBERg==", name: "a.pdf" },
      { type: "resource", uri: "file:///notes.txt", mimeType: "text/plain", text: "hello" },
      { type: "audio", mediaType: "audio/wav", data: "UklGRg==" },
      { type: "audio", url: "https://example.com/a.mp3" },
    ];
    const checked = checkParts(given, "the test");
    given.push({ type: "text", text: "later" });
    expect(checked).toHaveLength(7);
    expect(Object.isFrozen(checked)).toBe(true);
    expect(checked[1]).toEqual(image);
  });

  it.each([
    [[{ type: "video", url: "https://x" }], /`type` of part 0 of the test to be one of "text", "image", "audio", "file", "resource", got "video"/],
    [[{ type: "audio", mediaType: "image/png", data: "AAAA" }], /`mediaType` of part 0 of the test to be an audio\/… media type, got "image\/png"/],
    [[{ type: "audio", data: "AAAA" }], /`mediaType` of part 0 of the test to be a non-empty string/],
    [[{ type: "image", mediaType: "image/png" }], /exactly one of `data` \(base64\) and `url`, got neither/],
    [[{ type: "image", mediaType: "image/png", data: PNG, url: "https://x/a.png" }], /got both/],
    [[{ type: "image", mediaType: "text/plain", data: PNG }], /`mediaType` of part 0 of the test to be an image\/… media type/],
    [[{ type: "image", data: PNG }], /`mediaType` of part 0 of the test to be a non-empty string/],
    [[{ type: "image", mediaType: "image/png", data: "not base64!" }], /`data` of part 0 of the test to be base64/],
    [[{ type: "image", url: "ftp://host/a.png" }], /https:, http: or data: URL/],
    [[{ type: "image", mimeType: "image/png", url: "https://x/a.png" }], /Unknown key `mimeType` in part 0 of the test \(did you mean `mediaType`\?\)/],
    [[{ type: "resource" }], /`uri` of part 0 of the test to be a non-empty string/],
    ["an image", /`parts` of the test to be an array of content parts/],
  ])("refuses %j, saying what is wrong", (parts, message) => {
    expect(() => checkParts(parts, "the test")).toThrow(message);
  });
});

describe("a tool result with content parts", () => {
  const chart = defineTool({ name: "chart", description: "", schema: z.object({}), handler: () => ok("the sales chart", { parts: [image] }) });

  it("keeps its parts on the tool message and the tool_result_encoded event, after the encoded value", async () => {
    const { messages } = await runToolCalls([call("chart")], [chart]);
    expect(messages).toEqual([{ role: "tool", toolCallId: "c-chart", name: "chart", content: "the sales chart", isError: false, parts: [image] }]);
    const events = await lastValueFrom(streamToolCalls([call("chart")], [chart]).pipe(toArray()));
    expect(events.at(-1)).toMatchObject({ type: "tool_result_encoded", content: "the sales chart", parts: [image] });
  });

  it("leaves a plain result's message without a parts key", async () => {
    const plain = defineTool({ name: "plain", description: "", schema: z.object({}), handler: () => ok(1) });
    const { messages } = await runToolCalls([call("plain")], [plain]);
    expect(must(messages[0])).not.toHaveProperty("parts");
  });

  it("ok() refuses a bad part where the handler builds it: the call's handler_raised says why", async () => {
    const bad = defineTool({
      name: "bad",
      description: "",
      schema: z.object({}),
      handler: () => ok("x", { parts: [{ type: "image", mediaType: "image/png" } as ContentPart] }),
    });
    const { messages } = await runToolCalls([call("bad")], [bad]);
    expect(must(messages[0]).isError).toBe(true);
    expect(must(messages[0]).content).toContain("exactly one of `data` (base64) and `url`");
  });

  it("a result built by hand with bad parts is the call's invalid_return, never a message carrying them", async () => {
    const byHand = defineTool({
      name: "byHand",
      description: "",
      schema: z.object({}),
      handler: () => ({ type: "ok", value: "x", parts: [{ type: "image", mediaType: "image/png", data: "%%%" }] }) as never,
    });
    const events = await lastValueFrom(streamToolCalls([call("byHand")], [byHand]).pipe(toArray()));
    const tail = must(events.at(-1));
    expect(tail).toMatchObject({ type: "tool_result_encoded", isError: true });
    expect(tail).not.toHaveProperty("parts");
    expect((tail as { content: string }).content).toContain("invalid_return");
    expect((tail as { content: string }).content).toContain("base64");
  });

  it("an output budget cuts the text the model reads and keeps every part", async () => {
    const long = defineTool({ name: "long", description: "", schema: z.object({}), handler: () => ok("x".repeat(10_000), { parts: [image] }) });
    const { messages } = await runToolCalls([call("long")], [long], { outputBudget: 100 });
    expect(must(messages[0]).content.length).toBeLessThanOrEqual(100);
    expect(must(messages[0]).parts).toEqual([image]);
  });
});

describe("partMarker", () => {
  it("names a part without its bytes", () => {
    expect(partMarker(image)).toBe("[image: image/png, 70 B]");
    expect(partMarker({ type: "file", mediaType: "application/pdf", url: "https://x/a.pdf", name: "a.pdf" })).toBe(
      "[file: a.pdf, application/pdf, https://x/a.pdf]",
    );
    expect(partMarker({ type: "image", url: `data:image/png;base64,${PNG}` })).toBe("[image: a data: URL, 70 B]");
    expect(partMarker({ type: "resource", uri: "file:///n.txt", text: "hi" })).toBe("[resource: file:///n.txt]\nhi");
    expect(partMarker({ type: "audio", mediaType: "audio/wav", data: "UklGRg==" })).toBe("[audio: audio/wav, 4 B]");
    expect(partMarker({ type: "audio", url: "https://x/a.mp3" })).toBe("[audio: https://x/a.mp3]");
  });
});
