import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { approvalToken, verifyApprovalToken, type ApprovalSubject } from "../../src/index.js";
import { approvalKey, checkApprovalToken } from "../../src/tool/approval/approval-token.js";
import { assertApprovalSecret } from "../../src/tool/approval/hmac-key.js";

// Issue 30, item 3: tokens bound to the conversation, versioned, expiring, rotating, canonical.

const subject: ApprovalSubject = { id: "c1", name: "transfer", arguments: { to: "Ana", eur: 250 }, conversationKey: "conv-7" };
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

describe("approvalToken", () => {
  it("is v2.<conversation tag>.<expiry>.<mac>, with empty fields for no conversation and no expiry", async () => {
    expect(await approvalToken("k", subject)).toMatch(/^v2\.[A-Za-z0-9_-]{22}\.\.[A-Za-z0-9_-]{43}$/);
    expect(await approvalToken("k", { ...subject, conversationKey: undefined })).toMatch(/^v2\.\.\.[A-Za-z0-9_-]{43}$/);
    expect(await approvalToken("k", subject, { expiresAt: 1_000 })).toMatch(/^v2\.[A-Za-z0-9_-]{22}\.1000\.[A-Za-z0-9_-]{43}$/);
    expect(await approvalToken("k", subject, { expiresAt: 0 })).toMatch(/^v2\.[A-Za-z0-9_-]{22}\.0\./);
  });

  it("does not show the conversation key: the tag is a keyed digest, different per secret", async () => {
    const [a, b] = [await approvalToken("k", subject), await approvalToken("k2", subject)];
    expect(a).not.toContain("conv-7");
    expect(a.split(".")[1]).not.toBe(b.split(".")[1]);
    expect(a.split(".")[1]).toBe((await approvalToken("k", { ...subject, id: "other" })).split(".")[1]);
  });

  it("refuses an expiry that is not a non-negative safe integer", async () => {
    for (const expiresAt of [-1, 1.5, Number.NaN, Infinity, 2 ** 53]) {
      await expect(approvalToken("k", subject, { expiresAt })).rejects.toThrow(
        `Expected \`expiresAt\` to be a non-negative safe integer of milliseconds, got ${String(expiresAt)}`,
      );
    }
  });

  it("refuses an unusable secret, naming it", async () => {
    await expect(approvalToken("", subject)).rejects.toThrow("Expected `secret` to be a non-empty string");
    await expect(verifyApprovalToken([], subject, "v2...")).rejects.toThrow("Expected `secret` to be a secret or a non-empty array of secrets, got []");
  });

  it("signs with the first of several secrets", async () => {
    expect(await approvalToken(["new", "old"], subject)).toBe(await approvalToken("new", subject));
  });

  it("takes raw bytes as a secret too", async () => {
    expect(await approvalToken(new TextEncoder().encode("k"), subject)).toBe(await approvalToken("k", subject));
  });

  it("does not depend on the order of the argument keys", async () => {
    const reordered = { ...subject, arguments: { eur: 250, to: "Ana" } };
    expect(await approvalToken("k", reordered)).toBe(await approvalToken("k", subject));
  });
});

describe("assertApprovalSecret", () => {
  it("takes a non-empty string, a non-empty Uint8Array, an HMAC CryptoKey, or a non-empty array of them", async () => {
    const key = await crypto.subtle.importKey("raw", new Uint8Array([1]), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    for (const ok of [undefined, "s", new Uint8Array(1), key, ["s", new Uint8Array(1), key]]) expect(() => assertApprovalSecret(ok)).not.toThrow();
  });

  it.each([
    ["", '`approvalSecret` to be a non-empty string, a non-empty Uint8Array or an HMAC CryptoKey, got ""'],
    [new Uint8Array(0), "`approvalSecret` to be a non-empty string, a non-empty Uint8Array or an HMAC CryptoKey"],
    [42, "`approvalSecret` to be a non-empty string, a non-empty Uint8Array or an HMAC CryptoKey, got 42"],
    [null, "`approvalSecret` to be a non-empty string"],
    [[], "`approvalSecret` to be a secret or a non-empty array of secrets, got []"],
    [["ok", new Uint8Array(0)], "`approvalSecret[1]` to be a non-empty string"],
    [["", "ok"], "`approvalSecret[0]` to be a non-empty string"],
  ])("refuses %o", (secret, message) => {
    expect(() => assertApprovalSecret(secret)).toThrow(new TypeError(`Expected ${message}`).message);
  });
});

describe("checkApprovalToken", () => {
  it("accepts the token for exactly its subject", async () => {
    expect(await checkApprovalToken("k", subject, await approvalToken("k", subject), 0)).toBeUndefined();
    expect(await verifyApprovalToken("k", subject, await approvalToken("k", subject))).toBe(true);
  });

  it("refuses another call id, tool name, arguments or secret as token_invalid", async () => {
    const token = await approvalToken("k", subject);
    expect(await checkApprovalToken("other", subject, token, 0)).toBe("token_invalid");
    expect(await checkApprovalToken("k", { ...subject, id: "c2" }, token, 0)).toBe("token_invalid");
    expect(await checkApprovalToken("k", { ...subject, name: "refund" }, token, 0)).toBe("token_invalid");
    expect(await checkApprovalToken("k", { ...subject, arguments: { to: "Ana", eur: 251 } }, token, 0)).toBe("token_invalid");
  });

  it("refuses a genuine token of another conversation as conversation_mismatch, with a key or without one", async () => {
    const keyed = await approvalToken("k", subject);
    const keyless = await approvalToken("k", { ...subject, conversationKey: undefined });
    expect(await checkApprovalToken("k", { ...subject, conversationKey: "conv-8" }, keyed, 0)).toBe("conversation_mismatch");
    expect(await checkApprovalToken("k", { ...subject, conversationKey: undefined }, keyed, 0)).toBe("conversation_mismatch");
    expect(await checkApprovalToken("k", subject, keyless, 0)).toBe("conversation_mismatch");
    expect(await checkApprovalToken("k", { ...subject, conversationKey: "" }, keyless, 0)).toBe("conversation_mismatch");
    expect(await checkApprovalToken("k", { ...subject, conversationKey: undefined }, keyless, 0)).toBeUndefined();
  });

  it("refuses a tag moved from another conversation's token as token_invalid: the MAC covers the tag", async () => {
    const mine = (await approvalToken("k", subject)).split(".");
    const theirs = (await approvalToken("k", { ...subject, conversationKey: "conv-8" })).split(".");
    const spliced = [mine[0], theirs[1], mine[2], mine[3]].join(".");
    expect(await checkApprovalToken("k", { ...subject, conversationKey: "conv-8" }, spliced, 0)).toBe("token_invalid");
  });

  it("accepts a token up to the millisecond before it expires, and refuses it as token_expired from then on", async () => {
    const token = await approvalToken("k", subject, { expiresAt: 5_000 });
    expect(await checkApprovalToken("k", subject, token, 4_999)).toBeUndefined();
    expect(await checkApprovalToken("k", subject, token, 5_000)).toBe("token_expired");
    expect(await verifyApprovalToken("k", subject, token, { now: 4_999 })).toBe(true);
    expect(await verifyApprovalToken("k", subject, token, { now: 5_000 })).toBe(false);
    expect(await verifyApprovalToken("k", subject, await approvalToken("k", subject, { expiresAt: Date.now() + 60_000 }))).toBe(true);
    expect(await verifyApprovalToken("k", subject, token)).toBe(false); // Date.now() is long past 5 000
  });

  it("refuses an expiry edited into the token as token_invalid: the MAC covers it", async () => {
    const [v, tag, , mac] = (await approvalToken("k", subject, { expiresAt: 5_000 })).split(".");
    expect(await checkApprovalToken("k", subject, [v, tag, "9000", mac].join("."), 6_000)).toBe("token_invalid");
    expect(await checkApprovalToken("k", subject, [v, tag, "", mac].join("."), 6_000)).toBe("token_invalid");
  });

  it("rotation: a token of any accepted secret verifies; one of a dropped secret does not", async () => {
    const old = await approvalToken("old", subject);
    expect(await checkApprovalToken(["new", "old"], subject, old, 0)).toBeUndefined();
    expect(await checkApprovalToken(["new", "old"], subject, await approvalToken(["new", "old"], subject), 0)).toBeUndefined();
    expect(await checkApprovalToken(["new"], subject, old, 0)).toBe("token_invalid");
    expect(await checkApprovalToken(["new", "old"], { ...subject, conversationKey: "conv-8" }, old, 0)).toBe("conversation_mismatch");
    const expiring = await approvalToken("old", subject, { expiresAt: 10 });
    expect(await checkApprovalToken(["new", "old"], subject, expiring, 10)).toBe("token_expired");
  });

  it("refuses every spelling of the MAC but the canonical one (the unused low bits of its last character)", async () => {
    const token = await approvalToken("k", subject);
    const head = token.slice(0, -1);
    const last = token.at(-1) as string;
    const sameBytes = [...ALPHABET].filter((c) => c !== last && ALPHABET.indexOf(c) >> 2 === ALPHABET.indexOf(last) >> 2);
    expect(sameBytes).toHaveLength(3);
    for (const c of sameBytes) expect(await checkApprovalToken("k", subject, head + c, 0)).toBe("token_invalid");
  });

  it.each([
    ["not a token"],
    ["v1.AAAA"],
    ["v2...***"],
    ["v2...AAAA"],
    ["V2...AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"],
    [" v2...AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"],
  ])("refuses %o as token_invalid", async (token) => {
    expect(await checkApprovalToken("k", subject, token, 0)).toBe("token_invalid");
  });

  it("refuses the token with its fields padded, cut or reshaped", async () => {
    const token = await approvalToken("k", subject, { expiresAt: 70 });
    const [v, tag, exp, mac] = token.split(".") as [string, string, string, string];
    for (const bad of [
      `${token}=`,
      `${token}\n`,
      `${v}.${tag}.0${exp}.${mac}`,
      `${v}.${tag}.${exp}.${mac}A`,
      `${v}.${tag}.${exp}.${mac.slice(0, -1)}`,
      `${v}.${tag}A.${exp}.${mac}`,
      `${v}.${tag}.${exp}`,
      `v3.${tag}.${exp}.${mac}`,
      `${v}.${tag}.${exp}.${mac.replace(/-/g, "+").replace(/_/g, "/")}`,
    ]) {
      expect(await checkApprovalToken("k", subject, bad, 0)).toBe("token_invalid");
    }
    expect(await checkApprovalToken("k", subject, token, 0)).toBeUndefined();
    expect(await checkApprovalToken("k", subject, undefined, 0)).toBe("token_invalid");
  });

  it("property: a token verifies only for its own conversation, call id, tool and arguments", async () => {
    const key = fc.option(fc.string({ maxLength: 4 }), { nil: undefined });
    const args = fc.dictionary(fc.string({ maxLength: 3 }), fc.oneof(fc.integer({ min: -3, max: 3 }), fc.boolean()), { maxKeys: 2 });
    const subj = fc.record({ id: fc.string({ maxLength: 2 }), name: fc.string({ minLength: 1, maxLength: 2 }), arguments: args, conversationKey: key });
    const fields = ["id", "name", "arguments", "conversationKey"] as const;
    // b is a with some fields taken from another subject, so equal and near-equal pairs are common.
    const pair = fc.tuple(subj, subj, fc.subarray([...fields])).map(([a, other, taken]) => {
      const b: Record<string, unknown> = { ...a };
      for (const f of taken) b[f] = other[f];
      return [a, b as unknown as ApprovalSubject] as const;
    });
    await fc.assert(
      fc.asyncProperty(pair, async ([a, b]) => {
        const fault = await checkApprovalToken("property secret", b, await approvalToken("property secret", a), 0);
        const sameCall = (await approvalKey({ ...a, conversationKey: "" })) === (await approvalKey({ ...b, conversationKey: "" }));
        const expected = !sameCall ? "token_invalid" : a.conversationKey === b.conversationKey ? undefined : "conversation_mismatch";
        expect(fault).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });
});

describe("approvalKey", () => {
  it("binds the conversation: the same call in two conversations, or in none, has three keys", async () => {
    const keys = new Set([
      await approvalKey(subject),
      await approvalKey({ ...subject, conversationKey: "conv-8" }),
      await approvalKey({ ...subject, conversationKey: undefined }),
      await approvalKey({ ...subject, conversationKey: "" }),
    ]);
    expect(keys.size).toBe(4);
    expect(await approvalKey({ ...subject, arguments: { eur: 250, to: "Ana" } })).toBe(await approvalKey(subject));
    expect(await approvalKey(subject)).toMatch(/^toolrx:approval:[A-Za-z0-9_-]{43}$/);
  });
});
