import { TestScheduler } from "rxjs/testing";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { defineTool, ok, runToolCalls, streamToolCalls } from "../../../src/index.js";

import { calls, echo, transferTool } from "./approval-gate-fixtures.js";

// Issue 36: what the batch runner's approval gate lets through, and how, and that it costs nothing where no approval is asked.

describe("what the gate lets through, and how (issue 36)", () => {
  it("a denial stops a call whose tool needs no approval, as the agent loop's resume does", async () => {
    const { tool } = transferTool();
    const ran = vi.fn(({ text }: { text: string }) => ok(text));
    const plain = defineTool({ name: "echo", description: "", schema: z.object({ text: z.string() }), handler: ran });
    const result = await runToolCalls(calls.slice(1), [tool, plain], { approvals: [{ role: "approval", toolCallId: "e1", approved: false, reason: "no" }] });
    expect(ran).not.toHaveBeenCalled();
    expect(result).toEqual({
      messages: [{ role: "tool", toolCallId: "e1", name: "echo", content: JSON.stringify({ error: "The user denied this call to echo: no" }), isError: true }],
    });
  });

  it("an approval of a call whose tool needs no approval runs it once", async () => {
    const ran = vi.fn(({ text }: { text: string }) => ok(text));
    const plain = defineTool({ name: "echo", description: "", schema: z.object({ text: z.string() }), handler: ran });
    const approved = await runToolCalls(calls.slice(1), [plain], { approvals: [{ role: "approval", toolCallId: "e1", approved: true }] });
    expect(approved.messages).toEqual([{ role: "tool", toolCallId: "e1", name: "echo", content: "hi", isError: false }]);
    expect(ran).toHaveBeenCalledTimes(1);
  });

  it("asks the rule about the schema's output once: a transforming schema cannot turn a held call into one that runs", async () => {
    const handler = vi.fn(({ eur }: { eur: number }) => ok(eur));
    // Validated twice, `{ eur: 250 }` would fail `z.string()` and the rule would never be asked.
    const tool = defineTool({
      name: "transfer",
      description: "",
      schema: z.object({ eur: z.string().transform(Number) }),
      needsApproval: ({ eur }) => eur > 100,
      handler,
    });
    const held = await runToolCalls([{ id: "t1", name: "transfer", arguments: { eur: "250" } }], [tool]);
    expect(held.halt?.haltedReason).toBe("approval_required");
    expect(held.pendingApprovals?.[0]).toMatchObject({ toolCallId: "t1", arguments: { eur: "250" } });
    expect(handler).not.toHaveBeenCalled();
  });

  it("an approved call's arguments go through the schema once, as any call's do", async () => {
    let parsed = 0;
    const handler = vi.fn((args: { eur: number }) => ok(args.eur));
    const schema = z.object({ eur: z.number() }).transform((args) => {
      parsed++;
      return args;
    });
    const tool = defineTool({ name: "transfer", description: "", schema, needsApproval: true, handler });
    const approvals = [{ role: "approval" as const, toolCallId: "t1", approved: true }];
    const result = await runToolCalls(calls.slice(0, 1), [tool], { approvals });
    expect(result.messages[0]?.content).toBe("250");
    expect(parsed).toBe(1);
  });

  it("with `validateArguments: false`, edited arguments reach the handler as the decision gives them", async () => {
    const handler = vi.fn((args: { eur: unknown }) => ok(typeof args.eur));
    const tool = defineTool({
      name: "transfer",
      description: "",
      schema: z.object({ eur: z.coerce.number() }),
      needsApproval: ({ eur }) => eur > 100,
      handler,
    });
    const approvals = [{ role: "approval" as const, toolCallId: "t1", approved: true, arguments: { eur: "50" } }];
    const result = await runToolCalls(calls.slice(0, 1), [tool], { validateArguments: false, approvals });
    expect(handler).toHaveBeenCalledWith({ eur: "50" }, expect.anything());
    expect(result.messages[0]?.content).toBe("string");
  });

  it("a refused decision is answered with its reason; a rule that throws is the tool's failure, not a refusal", async () => {
    const handler = vi.fn(({ eur }: { eur: number }) => ok(eur));
    const needsApproval = ({ eur }: { eur: number }) => {
      if (eur === 13) throw new RangeError("unlucky");
      return eur > 100;
    };
    const tool = defineTool({ name: "transfer", description: "", schema: z.object({ eur: z.number() }), needsApproval, handler });
    const forged = await runToolCalls(calls.slice(0, 1), [tool], {
      approvalSecret: "s3cret",
      approvals: [{ role: "approval", toolCallId: "t1", approved: true, token: "v1.AAAA" }],
    });
    expect(forged.messages).toEqual([
      {
        role: "tool",
        toolCallId: "t1",
        name: "transfer",
        content: JSON.stringify({ error: 'the decision on tool call "t1" carries a token that was not issued for this call as it stands' }),
        isError: true,
      },
    ]);
    const thrown = await runToolCalls(calls.slice(0, 1), [tool], {
      approvals: [{ role: "approval", toolCallId: "t1", approved: true, arguments: { eur: 13 } }],
    });
    expect(thrown.messages[0]?.content).toBe(JSON.stringify({ error: "tool error (transfer): handler_exit: unlucky" }));
    expect(handler).not.toHaveBeenCalled();
  });
});

describe("the gate costs nothing where no approval is asked", () => {
  it("a synchronous handler's call answers in the frame it starts, beside an approval tool, so virtual-time tests stay exact", () => {
    const scheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
    const { tool } = transferTool();
    scheduler.run(({ expectObservable }) => {
      const events = streamToolCalls(calls.slice(1), [tool, echo], { scheduler });
      const call = { index: 0, toolCallId: "e1", toolName: "echo" };
      expectObservable(events).toBe("(abc|)", {
        a: { type: "tool_execution_started", ...call, arguments: { text: "hi" } },
        b: { type: "tool_execution_completed", ...call, result: ok("hi") },
        c: { type: "tool_result_encoded", ...call, content: "hi", isError: false },
      });
    });
  });
});
