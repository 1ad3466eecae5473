import { describe, expect, it } from "vitest";
import { approvalToken, memoryApprovalLedger, verifyApprovalToken } from "../../src/index.js";

describe("memoryApprovalLedger", () => {
  it("answers true the first time a key is consumed and false ever after", async () => {
    const ledger = memoryApprovalLedger();
    expect(await ledger.consume("a")).toBe(true);
    expect(await ledger.consume("a")).toBe(false);
    expect(await ledger.consume("b")).toBe(true);
  });

  it("forgets a key once its TTL has passed", async () => {
    let now = 0;
    const ledger = memoryApprovalLedger({ now: () => now });
    expect(await ledger.consume("a", 1_000)).toBe(true);
    now = 999;
    expect(await ledger.consume("a", 1_000)).toBe(false);
    now = 1_000;
    expect(await ledger.consume("a", 1_000)).toBe(true);
  });

  it("refuses options that are not what they say", () => {
    expect(() => memoryApprovalLedger({ ttlMs: 0 })).toThrow("Expected `ttlMs` to be a positive number, got 0");
  });
});

describe("approval tokens", () => {
  const subject = { id: "c1", name: "transfer", arguments: { to: "Ana", eur: 250, memo: { b: 1, a: 2 } } };

  it("do not depend on the order of the argument keys", async () => {
    const reordered = { id: "c1", name: "transfer", arguments: { memo: { a: 2, b: 1 }, eur: 250, to: "Ana" } };
    expect(await approvalToken("k", subject)).toBe(await approvalToken("k", reordered));
    expect(await verifyApprovalToken("k", reordered, await approvalToken("k", subject))).toBe(true);
  });

  it("verify only for the same secret, id, name and arguments", async () => {
    const token = await approvalToken("k", subject);
    expect(await verifyApprovalToken("other", subject, token)).toBe(false);
    expect(await verifyApprovalToken("k", { ...subject, id: "c2" }, token)).toBe(false);
    expect(await verifyApprovalToken("k", { ...subject, name: "refund" }, token)).toBe(false);
    expect(await verifyApprovalToken("k", { ...subject, arguments: { ...subject.arguments, eur: 251 } }, token)).toBe(false);
    expect(await verifyApprovalToken("k", subject, "not a token")).toBe(false);
    expect(await verifyApprovalToken("k", subject, "v1.***")).toBe(false);
  });

  it("take raw bytes as a secret too", async () => {
    const bytes = new TextEncoder().encode("k");
    expect(await approvalToken(bytes, subject)).toBe(await approvalToken("k", subject));
  });
});
