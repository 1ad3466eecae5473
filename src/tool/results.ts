import { thenOf } from "../util/safe.js";
import { checkParts, type ContentPart } from "./content-part.js";

/**
 * A handler succeeded; `value` goes to the result encoder.
 */
export interface Ok<T = unknown> {
  readonly type: "ok";
  readonly value: T;
  /**
   * Rich content for the model beside the encoded `value` (an image, a file, a resource): it
   * rides on the tool message as `parts`. See {@link ContentPart}.
   */
  readonly parts?: readonly ContentPart[];
}

/**
 * A failure. Returned by a handler it passes through unchanged to the `onToolError` policy;
 * built by the executor or runner, `reason` is a {@link ToolError}.
 */
export interface ErrorResult<E = unknown> {
  readonly type: "error";
  readonly reason: E;
}

/**
 * Suspend the loop and ask the user. `opts` is free-form data for the UI; left out it means `{}`.
 */
export interface AskUser {
  readonly type: "ask_user";
  readonly question: string;
  readonly opts?: object;
}

/**
 * Stop the loop with a handler-declared result. `reason` must not be one of
 * {@link RESERVED_HALT_REASONS}.
 */
export interface Halt<R = unknown> {
  readonly type: "halt";
  readonly reason: string;
  readonly result: R;
}

/** The only shapes a handler may return, sync or as a Promise. */
export type HandlerResult = Ok | ErrorResult | AskUser | Halt;

/** What {@link ok} takes beside the value. */
export interface OkOptions {
  /** Content parts for the model, after the encoded value (checked now: a bad part throws here). */
  readonly parts?: readonly ContentPart[];
}

/**
 * Build a success result.
 *
 * @example
 * ok({ tempC: 21 }); // { type: "ok", value: { tempC: 21 } }
 * ok("the chart", { parts: [{ type: "image", mediaType: "image/png", data: png }] });
 */
export function ok<T>(value: T, options?: OkOptions): Ok<T> {
  if (options === undefined) return { type: "ok", value };
  const parts = (options as { parts?: unknown }).parts;
  return parts === undefined ? { type: "ok", value } : { type: "ok", value, parts: checkParts(parts, "ok(value, { parts })") };
}

/**
 * Build a handler-reported failure. The reason reaches the `onToolError` policy unchanged.
 *
 * @example
 * error("city not found"); // { type: "error", reason: "city not found" }
 */
export function error<E>(reason: E): ErrorResult<E> {
  return { type: "error", reason };
}

/**
 * Build a question for the user; the batch halts with `haltedReason: "ask_user"`.
 *
 * @example
 * askUser("Which Paris?"); // { type: "ask_user", question: "Which Paris?", opts: {} }
 */
export function askUser(question: string, opts: object = {}): AskUser & { readonly opts: object } {
  return { type: "ask_user", question, opts };
}

/**
 * Build a halt: the batch stops the loop with `reason` and the encoded `result` as content.
 *
 * @example
 * halt("payment_declined", { code: 51 }); // { type: "halt", reason: "payment_declined", result: { code: 51 } }
 */
export function halt<R>(reason: string, result: R): Halt<R> {
  return { type: "halt", reason, result };
}

/**
 * Halt reasons the orchestrator owns. A handler halting with one of them is an
 * `invalid_return`, so a loop never mistakes a tool's halt for its own: the contract's six,
 * then the agent loop's own endings (`approval_required`, `manual_tool_calls`, `error`).
 */
export const RESERVED_HALT_REASONS = /* @__PURE__ */ Object.freeze([
  "ask_user",
  "max_turns",
  "halt_when",
  "tool_error",
  "cancelled",
  "completed",
  "approval_required",
  "manual_tool_calls",
  "error",
] as const);

/** One of {@link RESERVED_HALT_REASONS}. */
export type ReservedHaltReason = (typeof RESERVED_HALT_REASONS)[number];

const reserved: ReadonlySet<string> = /* @__PURE__ */ new Set(RESERVED_HALT_REASONS);

/** Whether `reason` belongs to the orchestrator rather than to a handler. */
export function isReservedHaltReason(reason: string): reason is ReservedHaltReason {
  return reserved.has(reason);
}

/**
 * Whether `value` is one of the legal handler result shapes. Extra keys are tolerated; missing
 * or mistyped ones are not. Never throws: a value whose getters or Proxy traps throw is not one.
 */
export function isHandlerResult(value: unknown): value is HandlerResult {
  if (typeof value !== "object" || value === null) return false;
  try {
    const v = value as Record<string, unknown>;
    switch (v.type) {
      case "ok":
        return "value" in v;
      case "error":
        return "reason" in v;
      case "ask_user": {
        const opts = v.opts;
        return typeof v.question === "string" && (opts === undefined || (typeof opts === "object" && opts !== null));
      }
      case "halt":
        return typeof v.reason === "string" && "result" in v;
      default:
        return false;
    }
  } catch {
    return false;
  }
}

/** Whether `value` is a Promise or another thenable, without awaiting it. Never throws. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return thenOf(value) !== undefined;
}
