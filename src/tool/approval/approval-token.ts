import { canonicalJson } from "../../util/canonical-json.js";
import { base64url, fromBase64url } from "./base64url.js";
import { assertApprovalSecret, keyOf, secretsOf, subtle, type ApprovalSecret, type ApprovalSecrets } from "./hmac-key.js";

export { assertApprovalSecret, type ApprovalSecret, type ApprovalSecrets } from "./hmac-key.js";

/** What a token is bound to: the call as it was put up for approval, in its conversation. */
export interface ApprovalSubject {
  readonly id: string;
  readonly name: string;
  readonly arguments: Record<string, unknown>;
  /**
   * The conversation the call belongs to (the run's `sessionId`). Absent: a call of no named
   * conversation, which is a conversation of its own kind: its token is refused wherever there
   * is a key, and a keyed token is refused where there is none.
   */
  readonly conversationKey?: string | undefined;
}

/** Options of {@link approvalToken}. */
export interface ApprovalTokenOptions {
  /**
   * When the token stops being accepted: milliseconds on the verifier's clock (the run's
   * `scheduler`, `Date.now()` by default), a non-negative safe integer. Absent: never.
   */
  readonly expiresAt?: number;
}

/** Options of {@link verifyApprovalToken}. */
export interface VerifyApprovalTokenOptions {
  /** The time now, on the clock `expiresAt` was set on. Default `Date.now()`. */
  readonly now?: number;
}

/** Why a token was refused: the mismatch reasons a token itself can cause. */
export type ApprovalTokenFault = "token_invalid" | "conversation_mismatch" | "token_expired";

/** The domain tags: no MAC or digest made for one purpose (or version) reads as another's. */
const TOKEN_DOMAIN = "toolrx/approval/v2";
const CONVERSATION_DOMAIN = "toolrx/approval/v2/conversation";
const KEY_DOMAIN = "toolrx/approval-key/v2";
/** `v2.<conversation tag>.<expiry>.<mac>`: an empty tag for no conversation, an empty expiry for none. */
const TOKEN = /^v2\.([A-Za-z0-9_-]{22}|)\.(0|[1-9][0-9]{0,15}|)\.([A-Za-z0-9_-]{43})$/;

/**
 * The token for one pending approval: `v2.<conversation>.<expiry>.<mac>`, where the MAC is an
 * HMAC-SHA-256 (Web Crypto, so it runs wherever the core does) over a domain tag, the
 * conversation, the expiry, the call id, the tool name and the canonical JSON of the arguments,
 * made with the first of the secrets. The conversation appears only as a keyed digest.
 *
 * @example
 * await approvalToken("server secret", { id: "c1", name: "transfer", arguments: { eur: 250 }, conversationKey: "conv-7" });
 * // "v2.Hq0…..Yq3…" (a 22-character conversation tag, no expiry, a 43-character MAC)
 */
export async function approvalToken(secret: ApprovalSecrets, subject: ApprovalSubject, options: ApprovalTokenOptions = {}): Promise<string> {
  assertApprovalSecret(secret, "secret");
  const { expiresAt } = options;
  if (expiresAt !== undefined && !(Number.isSafeInteger(expiresAt) && expiresAt >= 0)) {
    throw new TypeError(`Expected \`expiresAt\` to be a non-negative safe integer of milliseconds, got ${String(expiresAt)}`);
  }
  const key = await keyOf(secretsOf(secret)[0] as ApprovalSecret); // the first signs
  const tag = await conversationTag(key, subject.conversationKey);
  const expiry = expiresAt === undefined ? "" : String(expiresAt);
  const mac = await subtle().sign("HMAC", key, macPayload(tag, expiry, subject));
  return `v2.${tag}.${expiry}.${base64url(new Uint8Array(mac))}`;
}

/**
 * Whether `token` was made by {@link approvalToken} with one of `secret` for exactly `subject`
 * (the same conversation, id, tool name and arguments) and has not expired by `now`. The MAC is
 * compared in constant time.
 */
export async function verifyApprovalToken(
  secret: ApprovalSecrets,
  subject: ApprovalSubject,
  token: string,
  options: VerifyApprovalTokenOptions = {},
): Promise<boolean> {
  assertApprovalSecret(secret, "secret");
  return (await checkApprovalToken(secret, subject, token, options.now ?? Date.now())) === undefined;
}

/**
 * What is wrong with `token` for `subject` at `now`, or `undefined` when nothing is. A token
 * whose MAC holds was issued by this server; only then can it be told apart as one of another
 * conversation, or one that expired.
 */
export async function checkApprovalToken(
  secret: ApprovalSecrets,
  subject: ApprovalSubject,
  token: unknown,
  now: number,
): Promise<ApprovalTokenFault | undefined> {
  const parts = typeof token === "string" ? TOKEN.exec(token) : null;
  const mac = parts === null ? undefined : fromBase64url(parts[3] as string, 32);
  if (mac === undefined) return "token_invalid"; // no token shape (parts === null) leaves mac undefined too
  // Both alternatives of each group match (an empty one included), so every group is a string.
  const [, tag, expiry] = parts as unknown as [string, string, string];
  for (const one of secretsOf(secret)) {
    const key = await keyOf(one);
    if (!(await subtle().verify("HMAC", key, mac, macPayload(tag, expiry, subject)))) continue;
    if (tag !== (await conversationTag(key, subject.conversationKey))) return "conversation_mismatch";
    if (expiry !== "" && now >= Number(expiry)) return "token_expired";
    return undefined;
  }
  return "token_invalid";
}

/**
 * A short digest of the subject (SHA-256, base64url) under its own domain tag: the key an
 * approval is spent under in an {@link ApprovalLedger}, the same with or without a secret. It
 * binds the conversation, so the same call in two conversations is spent twice, once in each.
 */
export async function approvalKey(subject: ApprovalSubject): Promise<string> {
  const text = canonicalJson([KEY_DOMAIN, subject.conversationKey ?? null, subject.id, subject.name, subject.arguments]);
  const digest = await subtle().digest("SHA-256", encode(text));
  return `toolrx:approval:${base64url(new Uint8Array(digest))}`;
}

/** The conversation as the token shows it: a keyed digest (16 bytes), so the token does not tell the key. */
async function conversationTag(key: CryptoKey, conversationKey: string | undefined): Promise<string> {
  if (conversationKey === undefined) return "";
  const mac = await subtle().sign("HMAC", key, encode(canonicalJson([CONVERSATION_DOMAIN, conversationKey])));
  return base64url(new Uint8Array(mac, 0, 16));
}

function macPayload(tag: string, expiry: string, subject: ApprovalSubject): Uint8Array<ArrayBuffer> {
  // An array, so no field can be crafted to read as another split of the same text.
  return encode(canonicalJson([TOKEN_DOMAIN, tag, expiry, subject.id, subject.name, subject.arguments]));
}

function encode(text: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(text) as Uint8Array<ArrayBuffer>;
}
