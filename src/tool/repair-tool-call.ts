import type { ArgumentIssue } from "../schema/invalid-arguments-error.js";
import type { Tool } from "./tool.js";
import type { ToolCall } from "./tool-call.js";
import { describe } from "../util/safe.js";

/** What a {@link RepairToolCall} hook gets: the call whose arguments failed, why, and its tool. */
export interface FailedToolCall {
  readonly call: ToolCall;
  /** The validation issues, in zod's shape (`invalid_json` when the text was not JSON). */
  readonly issues: readonly ArgumentIssue[];
  readonly tool: Tool;
}

/**
 * Asked once for a call whose arguments do not match its tool's schema, before the call is
 * answered with the issues. It may return repaired arguments (a plain object: validated again
 * exactly as the model's were, so a repair cannot smuggle in what the schema refuses) or nothing,
 * and the call is answered with its issues as without a hook. A repair that still fails, that
 * throws, or that returns anything but a plain object is answered and never run: empty
 * arguments never stand in for invalid ones. A repaired call is reported (`repaired`) on
 * `onCallReport` before it runs.
 *
 * @example
 * // A model that sends numbers as strings:
 * const repairToolCall: RepairToolCall = ({ call }) =>
 *   Object.fromEntries(Object.entries(call.arguments).map(([k, v]) => [k, typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v]));
 */
export type RepairToolCall = (failed: FailedToolCall) => Record<string, unknown> | undefined | PromiseLike<Record<string, unknown> | undefined>;

/**
 * `repairToolCall` checked.
 *
 * @throws {TypeError} when it is given and is not a function.
 */
export function checkRepair(repair: unknown): RepairToolCall | undefined {
  if (repair === undefined || typeof repair === "function") return repair as RepairToolCall | undefined;
  throw new TypeError(`Expected \`repairToolCall\` to be a function ({ call, issues, tool }) => arguments | undefined, got ${describe(repair)}`);
}
