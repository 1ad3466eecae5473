import { checkArguments } from "../check-arguments.js";
import type { ToolResultEncoder } from "../encoder.js";
import { isThenable } from "../results.js";
import type { ToolMessage } from "../run-result.js";
import type { Tool } from "../tool.js";
import type { ToolCall } from "../tool-call.js";
import { describe } from "../tool-error.js";
import type { Message } from "./types.js";

/** What a tool's `needsApproval` function sees besides the arguments. */
export interface ApprovalContext {
  /** The exact call the model made. */
  readonly toolCall: ToolCall;
  /** The conversation up to the turn that made the call. */
  readonly messages: readonly Message[];
  readonly context: unknown;
  readonly sessionId: string | undefined;
  readonly requestId: string | undefined;
  /** Aborts when the run is unsubscribed or cancelled. */
  readonly signal: AbortSignal;
}

/**
 * A tool's approval rule: `true`, or a function of the validated arguments. Written as a method
 * so a typed tool still fits in a plain `Tool[]` (method parameters are bivariant).
 */
export type NeedsApproval<Args = Record<string, unknown>> =
  | boolean
  | { check(args: Args, ctx: ApprovalContext): boolean | PromiseLike<boolean> }["check"];

/** A call the loop did not run because it needs the host's approval. */
export interface PendingApproval {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly arguments: Record<string, unknown>;
}

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
