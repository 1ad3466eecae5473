import { describe, expect, it } from "vitest";
import { approvalToken, memoryApprovalLedger, verifyApprovalToken } from "../../src/index.js";
import { assertApprovalLedger } from "../../src/tool/approval/approval-ledger.js";

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

describe("memoryApprovalLedger (issue 36)", () => {
  it("remembers a key forever by default, and for `ttlMs` when set, to the millisecond", async () => {
    let now = 0;
    const forever = memoryApprovalLedger({ now: () => now });
    expect(await forever.consume("a")).toBe(true);
    now = Number.MAX_SAFE_INTEGER;
    expect(await forever.consume("a")).toBe(false);
    now = 0;
    const ledger = memoryApprovalLedger({ ttlMs: 100, now: () => now });
    expect(await ledger.consume("a")).toBe(true);
    expect(await ledger.consume("b", 10)).toBe(true); // its own TTL wins
    now = 9;
    expect(await ledger.consume("b")).toBe(false);
    now = 10;
    expect(await ledger.consume("b")).toBe(true); // spent again, now until 110 (the default)
    now = 99;
    expect(await ledger.consume("a")).toBe(false);
    now = 100;
    expect(await ledger.consume("a")).toBe(true);
    now = 109;
    expect(await ledger.consume("b")).toBe(false);
    expect(await ledger.consume("a")).toBe(false);
  });

  it("keeps every key spent while others expire around it", async () => {
    let now = 0;
    const ledger = memoryApprovalLedger({ now: () => now });
    for (const key of ["a", "b", "c"]) expect(await ledger.consume(key, 10 + key.charCodeAt(0))).toBe(true);
    now = 5;
    expect(await ledger.consume("d", 1)).toBe(true);
    now = 6;
    for (const key of ["a", "b", "c"]) expect(await ledger.consume(key)).toBe(false);
    expect(await ledger.consume("d")).toBe(true);
  });

  it.each([
    [{ ttlMs: -1 }, "Expected `ttlMs` to be a positive number, got -1"],
    [{ ttlMs: Number.NaN }, "Expected `ttlMs` to be a positive number, got NaN"],
    [{ ttlMs: "5" }, 'Expected `ttlMs` to be a positive number, got "5"'],
    [{ now: 5 }, "Expected `now` to be a function, got 5"],
  ])("refuses %o, naming the option", (options, message) => {
    expect(() => memoryApprovalLedger(options as never)).toThrow(new TypeError(message));
  });

  it("takes `ttlMs: Infinity` and a ledger of any object with `consume`", () => {
    expect(() => memoryApprovalLedger({ ttlMs: Infinity })).not.toThrow();
    for (const ok of [undefined, { consume: () => Promise.resolve(true) }, memoryApprovalLedger()]) expect(() => assertApprovalLedger(ok)).not.toThrow();
    for (const [bad, got] of [
      [null, "null"],
      [{}, "an object"],
      [{ consume: true }, "an object"],
      ["ledger", '"ledger"'],
    ] as const) {
      expect(() => assertApprovalLedger(bad)).toThrow(
        new TypeError(`Expected \`approvalLedger\` to be an object with a \`consume(key, ttlMs?)\` method, got ${got}`),
      );
    }
  });
});
