import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ok, runAgent, runToolCalls, type ToolCall } from "../../../src/index.js";
import { scriptedModel } from "../../../src/testing/index.js";

// Issue 41, item 9: a call that cannot run is never put up for approval. It is answered with its
// issues at once, so the user is not asked about arguments no handler would take.

const ran: unknown[] = [];
const transfer = (needsApproval: true | ((args: { amount: number }) => boolean)) =>
  defineTool({
    name: "transfer",
    description: "moves money",
    schema: z.object({ amount: z.number() }),
    needsApproval,
    handler: (args) => {
      ran.push(args);
      return ok("moved");
    },
  });
const RULES = [
  ["needsApproval: true", true],
  ["a function rule", () => true],
] as const;
const INVALID: [string, ToolCall][] = [
  ["arguments the schema refuses", { id: "c1", name: "transfer", arguments: { amount: "500" } }],
  ["arguments that were not JSON", { id: "c1", name: "transfer", arguments: {}, rawArguments: '{"amount": 5' }],
];

describe("a needsApproval tool called with invalid arguments", () => {
  for (const [rule, needsApproval] of RULES) {
    for (const [what, call] of INVALID) {
      describe(`(${rule}, ${what})`, () => {
        it("runToolCalls answers it with its issues and halts for no approval", async () => {
          ran.length = 0;
          const result = await runToolCalls([call], [transfer(needsApproval)]);
          expect(result.halt).toBeUndefined();
          expect(result.messages).toEqual([
            expect.objectContaining({ toolCallId: "c1", isError: true, content: expect.stringContaining("Invalid arguments") }),
          ]);
          expect(ran).toEqual([]);
        });

        it("the agent loop answers it with its issues and goes on, asking no one", async () => {
          ran.length = 0;
          const model = scriptedModel([
            [
              { type: "tool_call", call },
              { type: "finish", reason: "tool_calls" },
            ],
            [
              { type: "text_delta", text: "I could not." },
              { type: "finish", reason: "stop" },
            ],
          ]);
          const result = await runAgent({ model, tools: [transfer(needsApproval)], messages: [{ role: "user", content: "pay" }] });
          expect(result.haltedReason).toBe("completed");
          expect(result.messages.filter((m) => m.role === "tool")).toEqual([
            expect.objectContaining({ toolCallId: "c1", isError: true, content: expect.stringContaining("Invalid arguments") }),
          ]);
          expect(model.requests).toHaveLength(2);
          expect(ran).toEqual([]);
        });
      });
    }
  }

  it("a valid call of the same tool is still put up for approval", async () => {
    const model = scriptedModel([
      [
        { type: "tool_call", call: { id: "c1", name: "transfer", arguments: { amount: 500 } } },
        { type: "finish", reason: "tool_calls" },
      ],
    ]);
    const result = await runAgent({ model, tools: [transfer(true)], messages: [{ role: "user", content: "pay" }] });
    expect(result.haltedReason).toBe("approval_required");
  });
});
