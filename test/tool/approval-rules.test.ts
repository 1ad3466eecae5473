import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { defineTool, jsonEncoder, ok, type Tool, type ToolCall } from "../../src/index.js";
import { deniedMessage, overLimitMessage } from "../../src/agent/batch/approval.js";
import { approvalHalt, isApprovalHalt } from "../../src/tool/approval/approval-halt.js";
import { approvalNeeded, deniedText } from "../../src/tool/approval/approval-rule.js";
import { checkApprovals } from "../../src/tool/approval/approvals-option.js";

// Issue 36: the approval pieces the runner and the loop share, each held to what a user relies on.

const call: ToolCall = { id: "c1", name: "transfer", arguments: { to: "Ana", eur: "250" } };
const ctx = { toolCall: call, messages: [], context: undefined, sessionId: undefined, requestId: undefined, signal: new AbortController().signal };

function transfer(needsApproval: unknown, schema: z.ZodType = z.object({ to: z.string(), eur: z.coerce.number() })): Tool {
  return defineTool({ name: "transfer", description: "", schema, needsApproval: needsApproval as never, handler: () => ok(1) }) as unknown as Tool;
}

describe("approvalNeeded", () => {
  it("answers a boolean rule as it is, and no rule or no tool as not needed", () => {
    expect(approvalNeeded(transfer(true), call, ctx, true)).toBe(true);
    expect(approvalNeeded(transfer(false), call, ctx, true)).toBe(false);
    expect(approvalNeeded(transfer(undefined), call, ctx, true)).toBe(false);
    expect(approvalNeeded(undefined, call, ctx, true)).toBe(false);
  });

  it("never needs approval for invalid arguments, whatever the rule: `true` too (issue 41, item 9)", async () => {
    const invalid = { ...call, arguments: { to: 1 } };
    expect(approvalNeeded(transfer(true), invalid, ctx, true)).toBe(false);
    expect(approvalNeeded(transfer(true), { ...call, rawArguments: '{"to": "Ana", ' }, ctx, true)).toBe(false);
    const slow = z.object({ to: z.string() }).refine(async (a) => a.to !== "Mallory");
    expect(await approvalNeeded(transfer(true, slow), { ...call, arguments: { to: "Mallory" } }, ctx, true)).toBe(false);
    expect(await approvalNeeded(transfer(true, slow), call, ctx, true)).toBe(true);
    // Without validation nothing is known invalid: the rule stands.
    expect(approvalNeeded(transfer(true), invalid, ctx, false)).toBe(true);
  });

  it("asks a function rule with the schema's output, and never about invalid arguments", () => {
    const rule = vi.fn((args: { eur: number }) => args.eur > 100);
    expect(approvalNeeded(transfer(rule), call, ctx, true)).toBe(true);
    expect(rule).toHaveBeenLastCalledWith({ to: "Ana", eur: 250 }, ctx);
    expect(approvalNeeded(transfer(rule), { ...call, arguments: { to: 1 } }, ctx, true)).toBe(false);
    expect(rule).toHaveBeenCalledTimes(1);
  });

  it("with `validate: false`, hands the rule the arguments as they are", () => {
    const rule = vi.fn((args: { eur: unknown }) => typeof args.eur === "string");
    expect(approvalNeeded(transfer(rule), call, ctx, false)).toBe(true);
    expect(rule).toHaveBeenLastCalledWith(call.arguments, ctx);
    expect(approvalNeeded(transfer(rule), { ...call, arguments: { to: 1 } }, ctx, false)).toBe(false);
    expect(rule).toHaveBeenCalledTimes(2);
  });

  it("waits for an asynchronous schema and an asynchronous rule", async () => {
    const slow = z.object({ to: z.string(), eur: z.coerce.number() }).refine(async () => true);
    const rule = vi.fn(async (args: { eur: number }) => args.eur > 100);
    const answer = approvalNeeded(transfer(rule, slow), call, ctx, true);
    expect(answer).toBeInstanceOf(Promise);
    expect(await answer).toBe(true);
    expect(rule).toHaveBeenLastCalledWith({ to: "Ana", eur: 250 }, ctx);
    expect(await approvalNeeded(transfer(rule, slow), { ...call, arguments: { to: 1 } }, ctx, true)).toBe(false);
    expect(rule).toHaveBeenCalledTimes(1);
    expect(
      await approvalNeeded(
        transfer(async () => false),
        call,
        ctx,
        false,
      ),
    ).toBe(false);
  });

  it("throws (or rejects) a TypeError naming the tool when a rule answers something else", async () => {
    const message = 'Expected `needsApproval` of tool "transfer" to answer a boolean, got 1';
    expect(() =>
      approvalNeeded(
        transfer(() => 1),
        call,
        ctx,
        true,
      ),
    ).toThrow(new TypeError(message));
    expect(() =>
      approvalNeeded(
        transfer(() => 1),
        call,
        ctx,
        false,
      ),
    ).toThrow(new TypeError(message));
    await expect(
      approvalNeeded(
        transfer(async () => 1),
        call,
        ctx,
        false,
      ),
    ).rejects.toThrow(new TypeError(message));
    const slow = z.object({ to: z.string() }).refine(async () => true);
    await expect(
      approvalNeeded(
        transfer(() => "yes", slow),
        call,
        ctx,
        true,
      ),
    ).rejects.toThrow(new TypeError('Expected `needsApproval` of tool "transfer" to answer a boolean, got "yes"'));
  });
});

describe("a denied call's text", () => {
  it("names the tool and the user's reason, when there is one", () => {
    expect(deniedText(call, undefined)).toBe("The user denied this call to transfer");
    expect(deniedText(call, "")).toBe("The user denied this call to transfer");
    expect(deniedText(call, "too much")).toBe("The user denied this call to transfer: too much");
  });

  it("reaches the model through the run's encoder, or as JSON when the encoder fails", () => {
    const own = { encode: () => "", encodeError: (e: unknown) => `E:${String(e)}` };
    expect(deniedMessage(call, "no", own)).toEqual({
      role: "tool",
      toolCallId: "c1",
      name: "transfer",
      content: "E:The user denied this call to transfer: no",
      isError: true,
    });
    const expected = jsonEncoder.encodeError("The user denied this call to transfer: no");
    for (const encodeError of [
      () => {
        throw new Error("down");
      },
      () => 7,
    ]) {
      expect(deniedMessage(call, "no", { encode: () => "", encodeError: encodeError as never })).toEqual({
        role: "tool",
        toolCallId: "c1",
        name: "transfer",
        content: expected,
        isError: true,
      });
    }
  });

  it("over the turn's limit, says the limit and how to go on", () => {
    expect(overLimitMessage(call, 1, jsonEncoder).content).toBe(
      jsonEncoder.encodeError(
        "Not run: this turn asked for more than 1 tool call, the limit per turn. Call transfer again in a later turn if you still need it.",
      ),
    );
    expect(overLimitMessage(call, 3, jsonEncoder)).toEqual({
      role: "tool",
      toolCallId: "c1",
      name: "transfer",
      content: jsonEncoder.encodeError(
        "Not run: this turn asked for more than 3 tool calls, the limit per turn. Call transfer again in a later turn if you still need it.",
      ),
      isError: true,
    });
  });
});

describe("approvalHalt", () => {
  it("is the runner's own frozen approval_required halt; a lookalike is not", () => {
    const pending = { toolCallId: "c1", toolName: "transfer", arguments: {} } as never;
    const halt = approvalHalt(pending);
    expect(halt).toEqual({ type: "halt", reason: "approval_required", result: pending });
    expect(Object.isFrozen(halt)).toBe(true);
    expect(isApprovalHalt(halt)).toBe(true);
    for (const other of [{ ...halt }, null, undefined, "halt", approvalHalt]) expect(isApprovalHalt(other)).toBe(false);
  });
});

describe("checkApprovals", () => {
  it("keys decisions by call id, the last one winning, each an approval message", () => {
    expect(checkApprovals(undefined)).toBeUndefined();
    const byId = checkApprovals([
      { toolCallId: "a", approved: true },
      { role: "approval", toolCallId: "b", approved: false, reason: "no", token: "t", arguments: { x: 1 } },
      { toolCallId: "a", approved: false },
    ]);
    expect([...(byId ?? [])]).toEqual([
      ["a", { role: "approval", toolCallId: "a", approved: false }],
      ["b", { role: "approval", toolCallId: "b", approved: false, reason: "no", token: "t", arguments: { x: 1 } }],
    ]);
  });

  it.each([
    [{}, "Expected `approvals` to be an array of decisions, got an object"],
    [[null], "Expected `approvals[0]` to be a decision object, got null"],
    [[{ role: "user", toolCallId: "a", approved: true }], 'Expected `approvals[0].role` to be "approval" or absent, got "user"'],
    [[{ toolCallId: "", approved: true }], 'Expected `approvals[0].toolCallId` to be a non-empty string, got ""'],
    [[{ toolCallId: 1, approved: true }], "Expected `approvals[0].toolCallId` to be a non-empty string, got 1"],
    [
      [
        { toolCallId: "a", approved: true },
        { toolCallId: "b", approved: "yes" },
      ],
      'Expected `approvals[1].approved` to be a boolean, got "yes"',
    ],
    [[{ toolCallId: "a", approved: true, reason: 1 }], "Expected `approvals[0].reason` to be a string, got 1"],
    [[{ toolCallId: "a", approved: true, token: null }], "Expected `approvals[0].token` to be a string, got null"],
    [[{ toolCallId: "a", approved: true, arguments: [] }], "Expected `approvals[0].arguments` to be an object, got an array"],
  ])("refuses %o, naming the decision and the field", (approvals, message) => {
    expect(() => checkApprovals(approvals)).toThrow(new TypeError(message));
  });
});
