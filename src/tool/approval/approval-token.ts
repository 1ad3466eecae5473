import { canonicalJson } from "../../util/canonical-json.js";

/**
 * The server's key for approval tokens: a string (its UTF-8 bytes), raw bytes, or an HMAC
 * `CryptoKey` made with `crypto.subtle.importKey`. Keep it on the server: whoever holds it can
 * mint approvals.
 */
export type ApprovalSecret = string | Uint8Array | CryptoKey;

/** What a token is bound to: the call as it was put up for approval. */
export interface ApprovalSubject {
  readonly id: string;
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

const keys = new Map<string, Promise<CryptoKey>>();
const byteKeys = new WeakMap<object, Promise<CryptoKey>>();

/**
 * The token for one pending approval: an HMAC-SHA-256 (Web Crypto, so it runs wherever the core
 * does) over the call id, the tool name and the canonical JSON of the arguments, base64url.
 *
 * @example
 * await approvalToken("server secret", { id: "c1", name: "transfer", arguments: { eur: 250 } });
 * // "v1.Yq3…" (43 characters after the prefix)
 */
export async function approvalToken(secret: ApprovalSecret, subject: ApprovalSubject): Promise<string> {
  const mac = await subtle().sign("HMAC", await keyOf(secret), payload(subject));
  return `v1.${base64url(new Uint8Array(mac))}`;
}

/** Whether `token` was made by {@link approvalToken} with `secret` for exactly `subject` (compared in constant time). */
export async function verifyApprovalToken(secret: ApprovalSecret, subject: ApprovalSubject, token: string): Promise<boolean> {
  if (!token.startsWith("v1.")) return false;
  const mac = fromBase64url(token.slice(3));
  if (mac === undefined) return false;
  return subtle().verify("HMAC", await keyOf(secret), mac, payload(subject));
}

/**
 * A short digest of the subject (SHA-256, base64url): the key an approval is spent under in an
 * {@link ApprovalLedger}, the same with or without a secret.
 */
export async function approvalKey(subject: ApprovalSubject): Promise<string> {
  const digest = await subtle().digest("SHA-256", payload(subject));
  return `toolrx:approval:${base64url(new Uint8Array(digest))}`;
}

/** Throws a TypeError naming `approvalSecret` unless it is a usable secret. */
export function assertApprovalSecret(secret: unknown): asserts secret is ApprovalSecret | undefined {
  if (secret === undefined) return;
  if (typeof secret === "string" ? secret.length > 0 : secret instanceof Uint8Array ? secret.byteLength > 0 : isCryptoKey(secret)) return;
  throw new TypeError("Expected `approvalSecret` to be a non-empty string, a non-empty Uint8Array or an HMAC CryptoKey");
}

function isCryptoKey(value: unknown): boolean {
  return typeof CryptoKey !== "undefined" && value instanceof CryptoKey;
}

function payload(subject: ApprovalSubject): Uint8Array<ArrayBuffer> {
  // An array, so no id or name can be crafted to read as another split of the same text.
  return new TextEncoder().encode(canonicalJson([subject.id, subject.name, subject.arguments])) as Uint8Array<ArrayBuffer>;
}

function subtle(): SubtleCrypto {
  const crypto = (globalThis as { crypto?: Crypto }).crypto;
  if (crypto?.subtle === undefined) throw new TypeError("Approval tokens need Web Crypto (`globalThis.crypto.subtle`), which this runtime lacks");
  return crypto.subtle;
}

function keyOf(secret: ApprovalSecret): Promise<CryptoKey> {
  if (typeof secret === "string") {
    let key = keys.get(secret);
    if (key === undefined) {
      key = importKey(new TextEncoder().encode(secret));
      keys.set(secret, key);
    }
    return key;
  }
  if (secret instanceof Uint8Array) {
    let key = byteKeys.get(secret);
    if (key === undefined) {
      key = importKey(secret);
      byteKeys.set(secret, key);
    }
    return key;
  }
  return Promise.resolve(secret);
}

function importKey(bytes: Uint8Array): Promise<CryptoKey> {
  return subtle().importKey("raw", bytes as Uint8Array<ArrayBuffer>, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  let binary: string;
  try {
    binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
