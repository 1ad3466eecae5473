import { describe, expect, it } from "vitest";
import { approvalToken } from "../../src/index.js";
import { checkApprovalTokenTtl, pendingApproval, subjectOf, type ApprovalBinding } from "../../src/tool/approval/approval-binding.js";

// What binds a run's tokens: its secret, the tokens' lifetime, the conversation and the clock.

const call = { id: "c1", name: "transfer", arguments: { eur: 250 } };
const binding = (more: Partial<ApprovalBinding> = {}): ApprovalBinding => ({
  secret: "k",
  ttl: Infinity,
  conversationKey: "conv-a",
  now: () => 1_000.25,
  ...more,
});

describe("checkApprovalTokenTtl", () => {
  it("is Infinity when unset, and the number given when it is a positive number up to 1e15 or Infinity", () => {
    expect(checkApprovalTokenTtl(undefined, undefined)).toBe(Infinity);
    expect(checkApprovalTokenTtl(undefined, "k")).toBe(Infinity);
    for (const ttl of [0.5, 60_000, 1e15, Infinity]) expect(checkApprovalTokenTtl(ttl, "k")).toBe(ttl);
  });

  it.each([0, -1, Number.NaN, 1e15 + 1, -Infinity, "60000", null])("refuses %o, naming the option", (ttl) => {
    expect(() => checkApprovalTokenTtl(ttl, "k")).toThrow(/^Expected `approvalTokenTtl` to be a positive number of milliseconds up to 1e15, or Infinity, got /);
  });

  it("refuses a lifetime without a secret: nothing would enforce it", () => {
    expect(() => checkApprovalTokenTtl(60_000, undefined)).toThrow(new TypeError("Expected `approvalSecret` with `approvalTokenTtl`: only a token can expire"));
  });
});

describe("pendingApproval", () => {
  it("without a secret, carries no token", async () => {
    expect(await pendingApproval(call, binding({ secret: undefined }))).toEqual({ toolCallId: "c1", toolName: "transfer", arguments: { eur: 250 } });
  });

  it("with a secret, carries the token for the call in the binding's conversation, without expiry when ttl is Infinity", async () => {
    const pending = await pendingApproval(call, binding());
    expect(pending).toEqual({
      toolCallId: "c1",
      toolName: "transfer",
      arguments: { eur: 250 },
      token: await approvalToken("k", { ...call, conversationKey: "conv-a" }),
    });
  });

  it("expires ttl after the binding's clock, rounded up to the millisecond", async () => {
    const pending = await pendingApproval(call, binding({ ttl: 500 }));
    expect(pending.token).toBe(await approvalToken("k", { ...call, conversationKey: "conv-a" }, { expiresAt: 1_501 }));
  });
});

describe("subjectOf", () => {
  it("is the call's id, name and arguments, with the binding's conversation key", () => {
    expect(subjectOf({ ...call, rawArguments: "{}" } as typeof call, binding({ conversationKey: undefined }))).toEqual({ ...call, conversationKey: undefined });
    expect(subjectOf(call, binding())).toEqual({ ...call, conversationKey: "conv-a" });
  });
});
