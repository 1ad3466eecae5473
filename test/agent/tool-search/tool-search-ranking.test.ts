import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ok, toolSearch, type Tool } from "../../../src/index.js";
import { stemOf } from "../../../src/agent/tool-search/word-stem.js";
import { toolFields } from "../../../src/agent/tool-search/tool-index-text.js";

const tool = (name: string, description: string, schema: z.ZodObject = z.object({})): Tool =>
  defineTool({ name, description, schema, handler: () => ok(name) });

describe("stemOf", () => {
  it("gives the stems of Porter's (1980) own examples for the inflectional steps", () => {
    // Porter, "An algorithm for suffix stripping", steps 1a–1c; none of these is changed by step 5.
    const examples = {
      caresses: "caress",
      ponies: "poni",
      ties: "ti",
      caress: "caress",
      cats: "cat",
      feed: "feed",
      plastered: "plaster",
      bled: "bled",
      motoring: "motor",
      sing: "sing",
      hopping: "hop",
      tanned: "tan",
      falling: "fall",
      hissing: "hiss",
      fizzed: "fizz",
      failing: "fail",
      filing: "file",
      happy: "happi",
      sky: "sky",
    };
    expect(Object.fromEntries(Object.keys(examples).map((w) => [w, stemOf(w)]))).toEqual(examples);
  });

  it("reads a word and its inflections alike, which cutting a final s did not", () => {
    for (const [a, b] of [
      ["refunded", "refund"],
      ["refunding", "refunds"],
      ["scaling", "scale"],
      ["created", "creates"],
      ["copies", "copy"],
      ["replies", "reply"],
    ])
      expect(stemOf(a as string)).toBe(stemOf(b as string));
    expect(stemOf("k8s")).toBe("k8s");
  });
});

describe("toolSearch's lexical ranking", () => {
  it("finds a tool from an inflected word of its description", async () => {
    const tools = [tool("payments_refund", "Refund a charge"), tool("payments_capture", "Capture an authorized charge"), tool("copy_text", "Copy a text")];
    const found = toolSearch({ tools });
    expect((await found.search("refunded"))[0]?.name).toBe("payments_refund");
    expect((await found.search("copies"))[0]?.name).toBe("copy_text");
  });

  it("weighs a word in the name over the same word in an argument's description", async () => {
    // Unweighted, the short tool wins on length alone: "export" is once in each.
    const tools = [
      tool("archive_record", "Archive", z.object({ note: z.string().describe("export") })),
      tool("export_record", "Write every field of the record, its history, attachments and comments, to a downloadable file in the chosen format"),
    ];
    expect((await toolSearch({ tools }).search("export"))[0]?.name).toBe("export_record");
    expect(toolFields(tools[0] as Tool)).toEqual({ name: ["archiv", "record"], description: ["archiv"], arguments: ["note", "export"] });
  });
});
