import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { callToolResultProblems, isTextResult } from "../../../src/mcp/results/call-tool-result.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";

// Results near the commonest shape, and one field off in every way a server has got it wrong.
const block = fc.oneof(
  fc.record({ type: fc.constant("text"), text: fc.string({ maxLength: 3 }) }),
  fc.record({ type: fc.constantFrom("text", "image", "audio", "resource_link", "resource"), text: fc.jsonValue({ maxDepth: 1 }) }, { requiredKeys: ["type"] }),
  fc.jsonValue({ maxDepth: 1 }),
);
const result = fc.record(
  {
    content: fc.oneof(fc.array(block, { maxLength: 3 }), fc.jsonValue({ maxDepth: 1 })),
    structuredContent: fc.oneof(fc.dictionary(fc.string({ maxLength: 2 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }), fc.jsonValue({ maxDepth: 1 })),
    isError: fc.oneof(fc.boolean(), fc.jsonValue({ maxDepth: 0 })),
    _meta: fc.dictionary(fc.string({ maxLength: 2 }), fc.string({ maxLength: 2 }), { maxKeys: 1 }),
  },
  { requiredKeys: [] },
);
const json = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

describe("isTextResult", () => {
  it("never passes what the full check refuses, nor what the SDK's CallToolResultSchema refuses", () => {
    fc.assert(
      fc.property(fc.oneof(result, fc.jsonValue({ maxDepth: 2 })), (raw) => {
        const value = json(raw);
        if (!isTextResult(value)) return;
        expect(callToolResultProblems(value)).toBeUndefined();
        expect(CallToolResultSchema.safeParse(value).success).toBe(true);
      }),
      { numRuns: 3_000 },
    );
  });

  it("takes the answer most tools give, text blocks", () => {
    expect([
      isTextResult({ content: [{ type: "text", text: "3" }] }),
      isTextResult({ content: [{ type: "text", text: "3" }], structuredContent: { sum: 3 }, isError: false }),
      isTextResult({ content: [{ type: "text", text: 3 }] }),
      isTextResult({ content: [{ type: "image", data: "", mimeType: "image/png" }] }),
    ]).toEqual([true, true, false, false]);
  });
});
