import { approvalNeeded } from "../agent/approval.js";
import { checkArguments } from "../tool/check-arguments.js";
import type { Tool } from "../tool/tool.js";
import { isPlainRecord, type ToolCall } from "../tool/tool-call.js";
import type { McpRequestContext } from "./server-like.js";

/** The key of toolrx's approval question among a request's input requests and responses. */
export const APPROVAL_KEY = "toolrx_approval";

/**
 * What becomes of a call to a tool with `needsApproval` on an MCP server: it runs, it is refused
 * with a text that says why, or (revision 2026-07-28) the client is asked in an `input_required`
 * result and retries the call with the answer.
 */
export type ApprovalOutcome =
  | { readonly run: true }
  | { readonly run: false; readonly refused: string }
  | { readonly run: false; readonly inputRequired: Record<string, unknown> };

/** What deciding on a call needs besides the tool and the call. */
export interface ApprovalEnv {
  readonly rctx: McpRequestContext;
  readonly validate: boolean;
  readonly context: unknown;
  readonly sessionId: string | undefined;
  readonly requestId: string | undefined;
  /** How long the client's user may take to answer, in ms. */
  readonly timeout: number;
}

const RUN: ApprovalOutcome = { run: true };

/**
 * Decide whether a call may run, asking the client's user through MCP elicitation when the tool
 * needs approval. Fails closed: a call runs only on the user's explicit `approve: true`; a client
 * that cannot ask, a question that fails or times out, a rule that throws, all refuse the call.
 * A function rule is asked first, with the validated arguments, so a call it lets through is
 * never put to the user; a call whose arguments are invalid is not put to the user either (the
 * runner answers it without running it).
 */
export async function decideApproval(tool: Tool, call: ToolCall, env: ApprovalEnv): Promise<ApprovalOutcome> {
  if (tool.needsApproval === undefined || tool.needsApproval === false) return RUN;
  const { rctx } = env;
  let needed: boolean;
  try {
    if (env.validate && !(await checkArguments(tool, call)).ok) return RUN;
    const ctx = { toolCall: call, messages: [], context: env.context, sessionId: env.sessionId, requestId: env.requestId, signal: rctx.signal };
    needed = await approvalNeeded(tool, call, ctx, env.validate);
  } catch (e) {
    return refuse(`Could not tell whether the call to ${call.name} needs approval (${messageOf(e)}); it was not run`);
  }
  if (!needed) return RUN;
  const question = approvalQuestion(tool, call);
  if (rctx.inputRequired) {
    const answer = rctx.inputResponses?.[APPROVAL_KEY];
    if (answer !== undefined) return decided(answer, call);
    if (!canElicit(rctx.clientCapabilities())) return cannotAsk(call);
    return { run: false, inputRequired: { resultType: "input_required", inputRequests: { [APPROVAL_KEY]: { method: "elicitation/create", params: question } } } };
  }
  if (!canElicit(rctx.clientCapabilities())) return cannotAsk(call);
  try {
    return decided(await rctx.elicit(question, { signal: rctx.signal, timeout: env.timeout }), call);
  } catch (e) {
    return refuse(`Could not ask the user to approve the call to ${call.name} (${messageOf(e)}); it was not run`);
  }
}

/** The form the client shows its user: the tool, its arguments, and one yes/no field. */
function approvalQuestion(tool: Tool, call: ToolCall): Record<string, unknown> {
  let args = JSON.stringify(call.arguments) ?? "{}";
  if (args.length > 1_000) args = `${args.slice(0, 1_000)}…`;
  const about = tool.description === "" ? "" : ` (${tool.description})`;
  return {
    mode: "form",
    message: `Allow the tool ${call.name}${about} to run with these arguments?\n${args}`,
    requestedSchema: {
      type: "object",
      properties: { approve: { type: "boolean", title: "Approve", description: `Run ${call.name} with the arguments shown` } },
      required: ["approve"],
    },
  };
}

/** The user's answer: only an accepted form with `approve: true` lets the call run. */
function decided(answer: unknown, call: ToolCall): ApprovalOutcome {
  const action = isPlainRecord(answer) ? answer.action : undefined;
  const content = isPlainRecord(answer) && isPlainRecord(answer.content) ? answer.content : undefined;
  if (action === "accept" && content?.approve === true) return RUN;
  if (action === "decline") return refuse(`The user declined the call to ${call.name}; it was not run`);
  if (action === "cancel") return refuse(`The user dismissed the approval of ${call.name}; the call was not run`);
  return refuse(`The user did not approve the call to ${call.name}; it was not run`);
}

/**
 * Whether the client can show a form: `elicitation.form`, or a bare `elicitation: {}`, which the
 * spec reads as form support from before elicitation had modes.
 */
function canElicit(capabilities: unknown): boolean {
  if (!isPlainRecord(capabilities) || !isPlainRecord(capabilities.elicitation)) return false;
  const { form, url } = capabilities.elicitation;
  return form !== undefined || url === undefined;
}

function cannotAsk(call: ToolCall): ApprovalOutcome {
  return refuse(`The tool ${call.name} needs the user's approval, and this client cannot ask for it (it does not support MCP form elicitation); the call was not run`);
}

function refuse(text: string): ApprovalOutcome {
  return { run: false, refused: text };
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
