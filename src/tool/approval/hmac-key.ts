import { describe } from "../../util/safe.js";

/**
 * The server's key for approval tokens: a string (its UTF-8 bytes), raw bytes, or an HMAC
 * `CryptoKey` made with `crypto.subtle.importKey`. Keep it on the server: whoever holds it can
 * mint approvals.
 */
export type ApprovalSecret = string | Uint8Array | CryptoKey;

/**
 * One secret, or several while rotating: the first signs every new token, and each of them
 * verifies, so tokens issued before the rotation stay good until the old secret is dropped.
 */
export type ApprovalSecrets = ApprovalSecret | readonly ApprovalSecret[];

const keys = new Map<string, Promise<CryptoKey>>();
const byteKeys = new WeakMap<Uint8Array, Promise<CryptoKey>>();
/** Matches nothing: stands in for `CryptoKey` where a runtime has none, so no value passes as a key. */
class NoCryptoKey {}

/**
 * Throws a TypeError naming `name` unless `secret` is a usable secret or a non-empty array of
 * them (`undefined` passes: no secret).
 */
export function assertApprovalSecret(secret: unknown, name = "approvalSecret"): asserts secret is ApprovalSecrets | undefined {
  if (secret === undefined) return;
  if (!Array.isArray(secret)) {
    assertOne(secret, name);
    return;
  }
  if (secret.length === 0) throw new TypeError(`Expected \`${name}\` to be a secret or a non-empty array of secrets, got []`);
  for (let i = 0; i < secret.length; i++) assertOne(secret[i], `${name}[${i}]`);
}

function assertOne(secret: unknown, name: string): void {
  if (typeof secret === "string" ? secret.length > 0 : secret instanceof Uint8Array ? secret.byteLength > 0 : isCryptoKey(secret)) return;
  throw new TypeError(`Expected \`${name}\` to be a non-empty string, a non-empty Uint8Array or an HMAC CryptoKey, got ${describe(secret)}`);
}

function isCryptoKey(value: unknown): boolean {
  return value instanceof ((globalThis as { CryptoKey?: typeof CryptoKey }).CryptoKey ?? NoCryptoKey);
}

/** Every secret, the signing one first. */
export function secretsOf(secret: ApprovalSecrets): readonly ApprovalSecret[] {
  return Array.isArray(secret) ? secret : [secret as ApprovalSecret];
}

/** Web Crypto, so tokens work wherever the core runs (Node, Deno, Bun, workers, browsers). */
export function subtle(): SubtleCrypto {
  const crypto = (globalThis as { crypto?: Crypto }).crypto;
  if (crypto?.subtle === undefined) throw new TypeError("Approval tokens need Web Crypto (`globalThis.crypto.subtle`), which this runtime lacks");
  return crypto.subtle;
}

/** The HMAC-SHA-256 key of a secret, imported once per string or byte array. */
export function keyOf(secret: ApprovalSecret): Promise<CryptoKey> {
  if (typeof secret === "string") return cached(keys, secret, () => new TextEncoder().encode(secret));
  if (secret instanceof Uint8Array) return cached(byteKeys, secret, () => secret);
  return Promise.resolve(secret);
}

interface KeyCache<K> {
  get(secret: K): Promise<CryptoKey> | undefined;
  set(secret: K, key: Promise<CryptoKey>): unknown;
}

function cached<K>(cache: KeyCache<K>, secret: K, bytes: () => Uint8Array): Promise<CryptoKey> {
  const known = cache.get(secret);
  if (known !== undefined) return known;
  const key = importKey(bytes());
  cache.set(secret, key);
  return key;
}

function importKey(bytes: Uint8Array): Promise<CryptoKey> {
  return subtle().importKey("raw", bytes as Uint8Array<ArrayBuffer>, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}
