import { checkArguments } from "../tool/check-arguments.js";
import type { ToolResultEncoder } from "../tool/encoder.js";
import { isThenable } from "../tool/results.js";
import type { ToolMessage } from "../tool/message.js";
import type { Tool } from "../tool/tool.js";
import type { ToolCall } from "../tool/tool-call.js";
import { describe } from "../tool/tool-error.js";
import type { ApprovalContext, NeedsApproval } from "../tool/needs-approval.js";


/**
 * Whether `call` needs approval before it runs. A function rule gets the schema's output, so a
 * call with invalid arguments is never asked about: the runner answers it without its handler.
 *
 * @throws {TypeError} (or rejects) when the rule throws or answers something other than a boolean.
 */
export function approvalNeeded(
  tool: Tool | undefined,
  call: ToolCall,
  ctx: ApprovalContext,
  validate: boolean,
): boolean | Promise<boolean> {
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

/** The tool message that answers a denied call: an error text the model can read and act on. */
export function deniedMessage(call: ToolCall, reason: string | undefined, encoder: ToolResultEncoder): ToolMessage {
  const text = `The user denied this call to ${call.name}${reason === undefined || reason === "" ? "" : `: ${reason}`}`;
  let content: unknown;
  try {
    content = encoder.encodeError(text);
  } catch {
    content = undefined;
  }
  return {
    role: "tool",
    toolCallId: call.id,
    name: call.name,
    content: typeof content === "string" ? content : JSON.stringify({ error: text }),
    isError: true,
  };
}
