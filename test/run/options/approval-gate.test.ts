import { firstValueFrom, from, toArray } from "rxjs";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import {
  approve,
  defineTool,
  deny,
  executeToolCalls,
  halt,
  memoryApprovalLedger,
  ok,
  runToolCalls,
  streamToolCalls,
  toolResolver,
  type PendingApproval,
  type ToolCall,
} from "../../../src/index.js";

import { calls, echo, transferTool } from "./approval-gate-fixtures.js";

// Issue 19, item 2: the batch runner never runs a `needsApproval` call silently.

describe("a call whose tool needs approval", () => {
  it("runToolCalls does not run it: it halts with approval_required and lists it in pendingApprovals; siblings run", async () => {
    const { tool, handler } = transferTool();
    const result = await runToolCalls(calls, [tool, echo]);
    expect(handler).not.toHaveBeenCalled();
    const pending: PendingApproval = { toolCallId: "t1", toolName: "transfer", arguments: { eur: 250 } };
    expect(result.halt).toEqual({ haltedReason: "approval_required", haltToolCallId: "t1", haltResult: pending });
    expect(result.pendingApprovals).toEqual([pending]);
    expect(result.messages[1]).toEqual({ role: "tool", toolCallId: "e1", name: "echo", content: "hi", isError: false });
  });

  it("streamToolCalls tells it within the closed event union: a tool_halt with the reserved reason", async () => {
    const { tool } = transferTool();
    const events = await firstValueFrom(streamToolCalls(calls.slice(0, 1), [tool]).pipe(toArray()));
    expect(events.map((e) => e.type)).toEqual(["tool_execution_started", "tool_execution_completed", "tool_halt"]);
    expect(events[2]).toMatchObject({ type: "tool_halt", reason: "approval_required", result: { toolCallId: "t1" }, isError: false });
  });

  it("executeToolCalls and a resolver's tools are held the same way", async () => {
    const { tool, handler } = transferTool();
    const events = await firstValueFrom(from(calls.slice(0, 1)).pipe(executeToolCalls([tool]), toArray()));
    expect(events.at(-1)).toMatchObject({ type: "tool_halt", reason: "approval_required" });
    const resolver = toolResolver([tool]);
    const viaResolver = await runToolCalls(calls.slice(0, 1), resolver);
    expect(viaResolver.pendingApprovals).toEqual([{ toolCallId: "t1", toolName: "transfer", arguments: { eur: 250 } }]);
    expect(handler).not.toHaveBeenCalled();
  });

  it("a rule that answers false runs it at once, with the validated arguments", async () => {
    const { tool, handler } = transferTool(({ eur }) => eur > 1_000);
    const result = await runToolCalls(calls.slice(0, 1), [tool]);
    expect(handler).toHaveBeenCalledTimes(1);
    expect(result).toEqual({ messages: [{ role: "tool", toolCallId: "t1", name: "transfer", content: '{"sent":250}', isError: false }] });
  });

  it("a handler still cannot halt with approval_required itself", async () => {
    const faker = defineTool({ name: "faker", description: "", schema: z.object({}), handler: () => halt("approval_required", {}) });
    const result = await runToolCalls([{ id: "f1", name: "faker", arguments: {} }], [faker]);
    expect(result.halt).toBeUndefined();
    expect(result.messages[0]?.content).toMatch(/reserved/);
  });
});

describe("decisions passed in `approvals`", () => {
  it("an approved call runs; a denied one is answered with a text the model reads", async () => {
    const { tool, handler } = transferTool();
    const first = await runToolCalls(calls.slice(0, 1), [tool]);
    const pending = first.pendingApprovals?.[0] as PendingApproval;
    const approved = await runToolCalls(calls.slice(0, 1), [tool], { approvals: [approve(pending)] });
    expect(approved).toEqual({ messages: [{ role: "tool", toolCallId: "t1", name: "transfer", content: '{"sent":250}', isError: false }] });
    const denied = await runToolCalls(calls.slice(0, 1), [tool], { approvals: [deny(pending, "too much")] });
    expect(denied.messages[0]).toEqual({
      role: "tool",
      toolCallId: "t1",
      name: "transfer",
      content: '{"error":"The user denied this call to transfer: too much"}',
      isError: true,
    });
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it("with approvalSecret, the pending approval carries a token and a decision without the right one runs nothing", async () => {
    const { tool, handler } = transferTool();
    const options = { approvalSecret: "s3cret" };
    const first = await runToolCalls(calls.slice(0, 1), [tool], options);
    const pending = first.pendingApprovals?.[0] as PendingApproval;
    expect(pending.token).toMatch(/^v2\.\.\./);
    const forged = await runToolCalls(calls.slice(0, 1), [tool], {
      ...options,
      approvals: [{ role: "approval", toolCallId: "t1", approved: true, token: "v1.AAAA" }],
    });
    expect(forged.messages[0]?.content).toMatch(/ApprovalMismatchError|token that was not issued/);
    expect(forged.messages[0]?.isError).toBe(true);
    expect(handler).not.toHaveBeenCalled();
    const edited: ToolCall[] = [{ id: "t1", name: "transfer", arguments: { eur: 9_999 } }];
    await runToolCalls(edited, [tool], { ...options, approvals: [approve(pending)] });
    expect(handler).not.toHaveBeenCalled();
    await runToolCalls(calls.slice(0, 1), [tool], { ...options, approvals: [approve(pending)] });
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it("with an approval ledger, the same approved batch sent twice runs the call once", async () => {
    const { tool, handler } = transferTool();
    const options = { approvalLedger: memoryApprovalLedger(), approvals: [{ role: "approval" as const, toolCallId: "t1", approved: true }] };
    await runToolCalls(calls.slice(0, 1), [tool], options);
    const replay = await runToolCalls(calls.slice(0, 1), [tool], options);
    expect(handler).toHaveBeenCalledTimes(1);
    expect(replay.messages[0]?.content).toMatch(/was used already/);
  });

  it("a decision naming no call of the batch rejects it before anything runs", async () => {
    const { tool, handler } = transferTool();
    await expect(runToolCalls(calls, [tool, echo], { approvals: [{ role: "approval", toolCallId: "t9", approved: true }] })).rejects.toMatchObject({
      name: "ApprovalMismatchError",
      reason: "not_pending",
      toolCallId: "t9",
    });
    expect(handler).not.toHaveBeenCalled();
  });

  it("malformed decisions are TypeErrors naming the field", () => {
    expect(() => streamToolCalls(calls, [echo], { approvals: [{ toolCallId: "t1" }] as never })).toThrow(
      "Expected `approvals[0].approved` to be a boolean, got undefined",
    );
    expect(() => streamToolCalls(calls, [echo], { approvalSecret: "" })).toThrow(/`approvalSecret`/);
    expect(() => streamToolCalls(calls, [echo], { approvalLedger: {} as never })).toThrow(/`approvalLedger`/);
  });
});

describe("decisions with edited arguments (issue 36)", () => {
  it("runs the edited arguments as the schema gives them; asks again when the rule still wants it; answers invalid ones as an error", async () => {
    const handler = vi.fn(({ eur }: { eur: number }) => ok({ sent: eur }));
    const tool = defineTool({
      name: "transfer",
      description: "",
      schema: z.object({ eur: z.coerce.number() }),
      needsApproval: ({ eur }) => eur > 100,
      handler,
    });
    const call = { id: "t1", name: "transfer", arguments: { eur: 250 } };
    const lowered = await runToolCalls([call], [tool], { approvals: [{ role: "approval", toolCallId: "t1", approved: true, arguments: { eur: "50" } }] });
    expect(lowered.messages[0]?.content).toBe('{"sent":50}');
    expect(handler).toHaveBeenLastCalledWith({ eur: 50 }, expect.anything());
    const raised = await runToolCalls([call], [tool], { approvals: [{ role: "approval", toolCallId: "t1", approved: true, arguments: { eur: 500 } }] });
    expect(raised.halt?.haltedReason).toBe("approval_required");
    expect(raised.pendingApprovals?.[0]).toMatchObject({ toolCallId: "t1", arguments: { eur: 500 } });
    const invalid = await runToolCalls([call], [tool], { approvals: [{ role: "approval", toolCallId: "t1", approved: true, arguments: { eur: "lots" } }] });
    expect(invalid.messages[0]?.isError).toBe(true);
    expect(invalid.messages[0]?.content).toBe(
      JSON.stringify({ error: 'the decision on tool call "t1" edits the arguments into ones the tool\'s schema refuses' }),
    );
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it("asks the rule with the run's context, session and request ids, and the arguments the handler gets", async () => {
    const seen: unknown[] = [];
    const tool = defineTool({
      name: "transfer",
      description: "",
      schema: z.object({ eur: z.coerce.number() }),
      needsApproval: (args, ctx) => {
        seen.push(args, ctx.context, ctx.sessionId, ctx.requestId, ctx.messages, ctx.toolCall.id);
        return false;
      },
      handler: ({ eur }) => ok(eur),
    });
    await runToolCalls([{ id: "t1", name: "transfer", arguments: { eur: "7" } }], [tool], { context: { user: "ana" }, sessionId: "s1", requestId: "r1" });
    expect(seen).toEqual([{ eur: 7 }, { user: "ana" }, "s1", "r1", [], "t1"]);
  });
});
