import { assertToolCall, type ToolCall } from "../../tool/tool-call.js";

declare const CHECKED: unique symbol;

/**
 * A call the checks passed. The brand exists only for the compiler: the pool takes nothing else,
 * so a call's data cannot reach the scheduler without going through checks/ first (or through
 * `CheckedFeed`, whose caller, the agent loop, checked each call as the model's reply brought it).
 */
export type CheckedCall = ToolCall & { readonly [CHECKED]: true };

/**
 * One streamed call, checked as it arrives; `index` is its arrival order, which the message names.
 *
 * @throws {TypeError} as {@link assertToolCall}.
 */
export function checkCall(call: unknown, index: number): CheckedCall {
  assertToolCall(call, index);
  return call as CheckedCall;
}
