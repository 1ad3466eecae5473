import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { approvalToken, type ApprovalSubject } from "../../src/index.js";
import { approvalKey, checkApprovalToken } from "../../src/tool/approval/approval-token.js";
import { assertApprovalSecret } from "../../src/tool/approval/hmac-key.js";

// Issue 36: the approval token's format, to the byte, and the encodings and key under it.

const subject: ApprovalSubject = { id: "c1", name: "transfer", arguments: { to: "Ana", eur: 250 }, conversationKey: "conv-7" };

describe("the token's bytes, checked against node:crypto (issue 36: the domain tags are part of the format)", () => {
  it("the conversation tag, the MAC and the ledger key are the documented HMACs and digest", async () => {
    const { createHash, createHmac } = await import("node:crypto");
    const { canonicalJson } = await import("../../src/util/canonical-json.js");
    const b64 = (buf: Buffer) => buf.toString("base64url");
    const tag = b64(
      createHmac("sha256", "k")
        .update(canonicalJson(["toolrx/approval/v2/conversation", "conv-7"]))
        .digest()
        .subarray(0, 16),
    );
    const mac = b64(
      createHmac("sha256", "k")
        .update(canonicalJson(["toolrx/approval/v2", tag, "70", subject.id, subject.name, subject.arguments]))
        .digest(),
    );
    expect(await approvalToken("k", subject, { expiresAt: 70 })).toBe(`v2.${tag}.70.${mac}`);
    const key = b64(
      createHash("sha256")
        .update(canonicalJson(["toolrx/approval-key/v2", "conv-7", subject.id, subject.name, subject.arguments]))
        .digest(),
    );
    expect(await approvalKey(subject)).toBe(`toolrx:approval:${key}`);
  });

  it("refuses anything around the token, and a token that is not a string", async () => {
    const token = await approvalToken("k", subject);
    expect(await checkApprovalToken("k", subject, `x${token}`, 0)).toBe("token_invalid");
    expect(await checkApprovalToken("k", subject, new String(token), 0)).toBe("token_invalid");
  });

  it("signs with a CryptoKey as with its raw bytes", async () => {
    const key = await crypto.subtle.importKey("raw", new TextEncoder().encode("k"), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    expect(await approvalToken(key, subject)).toBe(await approvalToken("k", subject));
  });

  it("says so when the runtime has no Web Crypto", async () => {
    const { vi } = await import("vitest");
    for (const missing of [undefined, {}]) {
      vi.stubGlobal("crypto", missing);
      try {
        await expect(approvalKey(subject)).rejects.toThrow(
          new TypeError("Approval tokens need Web Crypto (`globalThis.crypto.subtle`), which this runtime lacks"),
        );
      } finally {
        vi.unstubAllGlobals();
      }
    }
  });
});

describe("fromBase64url", () => {
  it("takes only the canonical spelling of exactly the bytes asked for", async () => {
    const { base64url, fromBase64url } = await import("../../src/tool/approval/base64url.js");
    const bytes = new Uint8Array(32).map((_, i) => i * 7);
    const text = base64url(bytes);
    expect(fromBase64url(text, 32)).toEqual(bytes);
    expect(fromBase64url(base64url(bytes.subarray(0, 16)), 32)).toBeUndefined();
    expect(fromBase64url(text, 16)).toBeUndefined();
    expect(fromBase64url(`${text.slice(0, -2)}*A`, 32)).toBeUndefined();
    expect(fromBase64url(`*${text.slice(1)}`, 32)).toBeUndefined();
    expect(fromBase64url(`${text.slice(1)}*`, 32)).toBeUndefined();
    expect(fromBase64url(text.replace(/-/g, "+").replace(/_/g, "/"), 32)).toBeUndefined();
  });
});

describe("the server's key (issue 36: hmac-key.ts)", () => {
  it("imports each string or byte secret once, however many tokens it signs and checks", async () => {
    const { vi } = await import("vitest");
    const importKey = vi.spyOn(crypto.subtle, "importKey");
    try {
      const text = `once-${Math.random()}`;
      const bytes = new TextEncoder().encode(`bytes-${Math.random()}`);
      for (const secret of [text, bytes]) {
        const before = importKey.mock.calls.length;
        for (let i = 0; i < 3; i++) {
          const token = await approvalToken(secret, subject);
          expect(await checkApprovalToken(secret, subject, token, 0)).toBeUndefined();
        }
        expect(importKey.mock.calls.length - before).toBe(1);
      }
    } finally {
      importKey.mockRestore();
    }
  });

  it("imports the secret as a key that cannot be exported again", async () => {
    const { keyOf } = await import("../../src/tool/approval/hmac-key.js");
    for (const secret of [`x-${Math.random()}`, new Uint8Array([9, 9])]) {
      const key = await keyOf(secret);
      expect(key.extractable).toBe(false);
      await expect(crypto.subtle.exportKey("raw", key)).rejects.toThrow();
    }
  });

  it("refuses any value as a CryptoKey secret where the runtime has no CryptoKey, naming the option", async () => {
    const { vi } = await import("vitest");
    const key = await crypto.subtle.importKey("raw", new Uint8Array([1]), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    vi.stubGlobal("CryptoKey", undefined);
    try {
      expect(() => assertApprovalSecret(key, "secret")).toThrow(
        new TypeError("Expected `secret` to be a non-empty string, a non-empty Uint8Array or an HMAC CryptoKey, got an object"),
      );
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe("base64url (issue 36)", () => {
  it("is RFC 4648 §5 without padding: `-` and `_` for `+` and `/`, no `=`, for every length", async () => {
    const { base64url, fromBase64url } = await import("../../src/tool/approval/base64url.js");
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
        const text = base64url(bytes);
        expect(text).toBe(Buffer.from(bytes).toString("base64url"));
        expect(fromBase64url(text, bytes.length)).toEqual(bytes);
      }),
    );
    expect(base64url(new Uint8Array([0xfb, 0xff, 0xbf]))).toBe("-_-_");
  });
});
