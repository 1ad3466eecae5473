import type { McpRequestContext } from "../wire/index.js";
import type { PendingApproval, Tool } from "../../index.js";
import { isPlainRecord } from "../../util/safe.js";

/** The key of toolrx's approval question among a request's input requests and responses. */
export const APPROVAL_KEY = "toolrx_approval";

/**
 * What becomes of a call the runner held for approval on an MCP server: it runs, it is refused
 * with a text that says why, or (revision 2026-07-28) the client is asked in an `input_required`
 * result and retries the call with the answer.
 */
export type ApprovalOutcome =
  | { readonly run: true }
  | { readonly run: false; readonly refused: string }
  | { readonly run: false; readonly inputRequired: Record<string, unknown> };

const RUN: ApprovalOutcome = { run: true };

/**
 * Put a call the runner held for approval to the client's user, through MCP elicitation. Fails
 * closed: only the user's explicit `approve: true` lets it run; a client that cannot ask, a
 * question that fails or is not answered within `timeout` ms, all refuse it. On revision
 * 2026-07-28 the question goes out as an `input_required` result and the answer comes back in
 * the retried request.
 */
export async function askApproval(tool: Tool, pending: PendingApproval, rctx: McpRequestContext, timeout: number): Promise<ApprovalOutcome> {
  const question = approvalQuestion(tool, pending);
  const name = pending.toolName;
  if (rctx.inputRequired) {
    const answer = rctx.inputResponses?.[APPROVAL_KEY];
    if (answer !== undefined) return decided(answer, name);
    if (!canElicit(rctx.clientCapabilities())) return cannotAsk(name);
    return {
      run: false,
      inputRequired: { resultType: "input_required", inputRequests: { [APPROVAL_KEY]: { method: "elicitation/create", params: question } } },
    };
  }
  const declared = rctx.clientCapabilities();
  // A server made for this one request (the 2.x web handler, stateless) never saw the client's
  // initialize: it does not know what the client declared, and could not route its answer back.
  if (declared === undefined) return unknownClient(name);
  if (!canElicit(declared)) return cannotAsk(name);
  try {
    return decided(await rctx.elicit(question, { signal: rctx.signal, timeout }), name);
  } catch (e) {
    return refuse(`Could not ask the user to approve the call to ${name} (${messageOf(e)}); it was not run`);
  }
}

/** The form the client shows its user: the tool, its arguments, and one yes/no field. */
function approvalQuestion(tool: Tool, pending: PendingApproval): Record<string, unknown> {
  const name = pending.toolName;
  let args = JSON.stringify(pending.arguments) ?? "{}";
  if (args.length > 1_000) args = `${args.slice(0, 1_000)}…`;
  const about = tool.description === "" ? "" : ` (${tool.description})`;
  return {
    mode: "form",
    message: `Allow the tool ${name}${about} to run with these arguments?\n${args}`,
    requestedSchema: {
      type: "object",
      properties: { approve: { type: "boolean", title: "Approve", description: `Run ${name} with the arguments shown` } },
      required: ["approve"],
    },
  };
}

/** The user's answer: only an accepted form with `approve: true` lets the call run. */
function decided(answer: unknown, name: string): ApprovalOutcome {
  const action = isPlainRecord(answer) ? answer.action : undefined;
  const content = isPlainRecord(answer) && isPlainRecord(answer.content) ? answer.content : undefined;
  if (action === "accept" && content?.approve === true) return RUN;
  if (action === "decline") return refuse(`The user declined the call to ${name}; it was not run`);
  if (action === "cancel") return refuse(`The user dismissed the approval of ${name}; the call was not run`);
  return refuse(`The user did not approve the call to ${name}; it was not run`);
}

/**
 * Whether the client can show a form: `elicitation.form`, or a bare `elicitation: {}`, which the
 * spec reads as form support from before elicitation had modes.
 */
export function canElicit(capabilities: unknown): boolean {
  if (!isPlainRecord(capabilities) || !isPlainRecord(capabilities.elicitation)) return false;
  const { form, url } = capabilities.elicitation;
  return form !== undefined || url === undefined;
}

function cannotAsk(name: string): ApprovalOutcome {
  return refuse(
    `The tool ${name} needs the user's approval, and this client cannot ask for it (it does not support MCP form elicitation); the call was not run`,
  );
}

function unknownClient(name: string): ApprovalOutcome {
  return refuse(
    `The tool ${name} needs the user's approval, and this server cannot ask for it: it serves each request on its own (stateless) and never saw the client's initialize, so it does not know whether the client supports MCP form elicitation, nor could it hear the answer; the call was not run`,
  );
}

function refuse(text: string): ApprovalOutcome {
  return { run: false, refused: text };
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
