import { checkArguments } from "../check-arguments.js";
import { isThenable } from "../results.js";
import type { Tool } from "../tool.js";
import type { ToolCall } from "../tool-call.js";
import { describe } from "../tool-error.js";
import type { ApprovalContext } from "./needs-approval.js";

/**
 * Whether `call` needs approval before it runs. A function rule gets the schema's output, so a
 * call with invalid arguments is never asked about: the runner answers it without its handler.
 * `validate: false` hands the rule the call's arguments as they are (the runner has validated
 * them already, or validation is off).
 *
 * @throws {TypeError} (or rejects) when the rule throws or answers something other than a boolean.
 */
export function approvalNeeded(tool: Tool | undefined, call: ToolCall, ctx: ApprovalContext, validate: boolean): boolean | Promise<boolean> {
  const rule = tool?.needsApproval;
  if (rule === undefined || typeof rule === "boolean") return rule === true;
  if (!validate) return answerOf(rule(call.arguments, ctx), call);
  const checked = checkArguments(tool as Tool, call);
  if (isThenable(checked)) return checked.then((c) => (c.ok ? answerOf(rule(c.value, ctx), call) : false));
  return checked.ok ? answerOf(rule(checked.value, ctx), call) : false;
}

function answerOf(answer: boolean | PromiseLike<boolean>, call: ToolCall): boolean | Promise<boolean> {
  if (isThenable(answer)) return Promise.resolve(answer).then((a) => booleanOf(a, call));
  return booleanOf(answer, call);
}

function booleanOf(answer: unknown, call: ToolCall): boolean {
  if (typeof answer === "boolean") return answer;
  throw new TypeError(`Expected \`needsApproval\` of tool "${call.name}" to answer a boolean, got ${describe(answer)}`);
}

/** The text a denied call is answered with: the model reads it and can act on it. */
export function deniedText(call: ToolCall, reason: string | undefined): string {
  return `The user denied this call to ${call.name}${reason === undefined || reason === "" ? "" : `: ${reason}`}`;
}
