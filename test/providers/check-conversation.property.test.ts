/** `checkConversation` on any input at all: it answers with issues, never throws. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkConversation, type ConversationProvider } from "../../src/providers/index.js";

describe("checkConversation on anything at all", () => {
  it("reports issues and never throws, for every provider", () => {
    const any = fc.anything({ withNullPrototype: true, withBigInt: true, withObjectString: true, withMap: true });
    const block = fc.record(
      {
        type: fc.oneof(
          fc.constantFrom(
            "function_call",
            "function_call_output",
            "message",
            "text",
            "tool_use",
            "tool_result",
            "web_search_call",
            "mcp_call",
            "tool_search_output",
          ),
          any,
        ),
        id: any,
        call_id: any,
        tool_use_id: any,
        text: any,
        input: any,
        output: any,
        content: any,
      },
      { requiredKeys: [] },
    );
    const loose = fc.oneof(
      any,
      fc.record(
        {
          role: fc.oneof(fc.constantFrom("user", "assistant", "tool", "system"), any),
          content: fc.oneof(any, fc.array(block, { maxLength: 3 })),
          tool_calls: any,
          tool_call_id: any,
        },
        { requiredKeys: [] },
      ),
      block,
    );
    fc.assert(
      fc.property(
        fc.array(loose, { maxLength: 6 }),
        fc.constantFrom("openai-chat", "openai-responses", "anthropic") satisfies fc.Arbitrary<ConversationProvider>,
        fc.boolean(),
        (messages, provider, pendingCalls) => {
          const issues = checkConversation(messages, provider, { pendingCalls });
          for (const issue of issues) expect(typeof issue.message).toBe("string");
        },
      ),
      { numRuns: 2000 },
    );
    // 3 s on an idle machine; a hunt (seed 843782374, a loaded machine) saw 25 s, past vitest's default 20.
  }, 120_000);
});
