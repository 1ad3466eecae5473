import { checkArguments } from "../check-arguments.js";
import { isThenable } from "../results.js";
import type { Tool } from "../tool.js";
import type { ToolCall } from "../tool-call.js";
import { describe } from "../tool-error.js";
import type { ApprovalContext } from "./needs-approval.js";

/**
 * Whether `call` needs approval before it runs. A call with invalid arguments never does, whatever
 * the rule (`true` included): the runner answers it with its issues at once, and the user is never
 * asked about a call that cannot run. A function rule gets the schema's output. `validate: false`
 * takes the call's arguments as they are (the runner has validated them already, or validation is
 * off).
 *
 * @throws {TypeError} (or rejects) when the rule throws or answers something other than a boolean.
 */
export function approvalNeeded(tool: Tool | undefined, call: ToolCall, ctx: ApprovalContext, validate: boolean): boolean | Promise<boolean> {
  const rule = tool?.needsApproval;
  if (rule === undefined || rule === false) return false;
  const ask = (args: Record<string, unknown>): boolean | Promise<boolean> => (rule === true ? true : answerOf(rule(args, ctx), call));
  if (!validate) return ask(call.arguments);
  const checked = checkArguments(tool as Tool, call);
  if (isThenable(checked)) return checked.then((c) => (c.ok ? ask(c.value) : false));
  return checked.ok ? ask(checked.value) : false;
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
