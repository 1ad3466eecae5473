import { nestedReporterOf } from "../run/call/call-context.js";
import type { HandlerContext } from "../tool/handler-context.js";
import type { AssistantMessage, Message } from "../tool/message.js";
import { askUser, error, halt, isReservedHaltReason, ok, type HandlerResult } from "../tool/results.js";
import { defineTool, type Tool, type ToolDefinition } from "../tool/tool.js";
import type { InferArguments, ToolSchema } from "../schema/tool-schema.js";
import { checkAgentOptions, type AgentOptions } from "./options/index.js";
import { agentRuns } from "./stream-agent.js";
import { SUBAGENT_RESUME, type SubagentState, subagentRunnerOf } from "./subagents/index.js";
import type { AgentEvent, AgentResult } from "./events/index.js";

/** A subagent's run, as its tool builds it per call: every {@link AgentOptions} but `signal`, which is the call's. */
export type SubagentOptions = Omit<AgentOptions, "signal">;

/** The argument of {@link agentTool}: a tool definition whose handler is a whole agent loop. */
export interface AgentToolDefinition<S extends ToolSchema> extends Omit<ToolDefinition<S>, "handler"> {
  /** The subagent for one call: its own model, tools, conversation (built from the arguments) and limits. */
  agent(args: InferArguments<S>, ctx: HandlerContext): SubagentOptions;
  /**
   * What the parent's model reads when the subagent ends without needing the host (`completed`,
   * `halt_when`, `max_turns`, a handler's own halt, `tool_error`, `error`, `cancelled`).
   * Default: `completed` and `halt_when` give the subagent's last assistant text; a handler's
   * own halt halts the parent too; anything else is an error naming the ending.
   */
  answer?(result: AgentResult): HandlerResult;
}

/**
 * A tool that runs a whole agent loop (`streamAgent`) per call: a subagent with its own model,
 * tools and limits. Its deadline and cancellation are the call's (`ctx.signal` is its signal);
 * its events reach the parent's stream as `subagent_event`s under the call (and
 * `onCallReport` as `nested_event` reports), so a UI can nest them; its final answer is the
 * call's result.
 *
 * When the subagent halts for the host (`ask_user`, `approval_required`, `manual_tool_calls`),
 * the call answers `askUser` with `opts.subagent`: the halt and the subagent's conversation.
 * The parent halts with `ask_user`; the host appends what it would have given the subagent (the
 * user's answer, approval decisions for the subagent's calls, manual results) and calls the
 * parent again, which resumes the subagent where it stopped, as a continuation of that call.
 *
 * @example
 * const researcher = agentTool({
 *   name: "research",
 *   description: "Research a question on the web",
 *   schema: z.object({ question: z.string() }),
 *   agent: ({ question }) => ({ model, tools: [search], maxTurns: 4, messages: [{ role: "user", content: question }] }),
 * });
 * streamAgent({ model, tools: [researcher], messages });
 */
export function agentTool<const S extends ToolSchema>(definition: AgentToolDefinition<S>): Tool<InferArguments<S>> {
  const { agent, answer = defaultAnswer, ...rest } = definition;
  if (typeof agent !== "function") throw new TypeError(`Expected \`agent\` of tool "${String(rest.name)}" to be a function (args, ctx) => agent options`);
  if (typeof answer !== "function") throw new TypeError(`Expected \`answer\` of tool "${String(rest.name)}" to be a function (result) => a handler result`);
  const name = rest.name;
  // Widened: spelling out defineTool's inference over an arbitrary `S` is too deep for the compiler.
  const build = agent as unknown as (args: Record<string, unknown>, ctx: HandlerContext) => SubagentOptions;
  const handler = (args: Record<string, unknown>, ctx: HandlerContext) => runSubagent(name, build.call(definition, args, ctx), ctx, answer);
  const widened = { ...(rest as object), handler } as unknown as ToolDefinition<ToolSchema>;
  const tool: Tool = defineTool<ToolSchema>(widened);
  return tool as unknown as Tool<InferArguments<S>>;
}

function runSubagent(name: string, options: SubagentOptions, ctx: HandlerContext, answer: (result: AgentResult) => HandlerResult): Promise<HandlerResult> {
  const resume = ctx.toolCall.metadata?.[SUBAGENT_RESUME] as SubagentState | undefined;
  const messages = resume === undefined ? options.messages : resume.messages;
  // Checked here, synchronously: a misconfigured subagent is this call's `handler_raised`.
  const run: AgentOptions = { ...options, messages, signal: ctx.signal };
  const env = checkAgentOptions(run);
  const report = nestedReporterOf(ctx);
  const round = resume === undefined ? 0 : resume.round + 1;
  // Under telemetry the subagent runs traced, so its spans nest under this call's.
  const runner = subagentRunnerOf(ctx);
  const events = runner === undefined ? agentRuns(env, report === undefined) : runner(run);
  return new Promise<HandlerResult>((resolve) => {
    events.subscribe({
      next: (event: AgentEvent) => {
        if (event.type !== "agent_halted") {
          report?.(event);
          return;
        }
        report?.(event);
        resolve(resultOf(name, event as unknown as AgentResult, round, answer));
      },
      // The loop ends every run with agent_halted; an error here is a bug of ours, told as such.
      error: (e: unknown) => resolve(error(e)),
    });
  });
}

function resultOf(name: string, end: AgentResult, round: number, answer: (result: AgentResult) => HandlerResult): HandlerResult {
  const { haltedReason, messages } = end;
  const metadata = end.metadata as Record<string, unknown>;
  const question = questionOf(haltedReason, metadata);
  if (question === undefined) return answer(end);
  const subagent: SubagentState = { tool: name, haltedReason, metadata, messages, round };
  return askUser(question, { subagent });
}

/** The question the parent's host sees for a subagent's halt that needs it; `undefined` for any other. */
function questionOf(haltedReason: string, metadata: Record<string, unknown>): string | undefined {
  if (haltedReason === "ask_user") return String(metadata.pendingQuestion);
  if (haltedReason === "approval_required") {
    const names = (metadata.pendingApprovals as readonly { toolName: string }[]).map((p) => p.toolName);
    return `Approval required for ${names.join(", ")}`;
  }
  if (haltedReason === "manual_tool_calls") {
    const names = (metadata.manualToolCalls as readonly { name: string }[]).map((c) => c.name);
    return `Results required for ${names.join(", ")}`;
  }
  return undefined;
}

function defaultAnswer(result: AgentResult): HandlerResult {
  const { haltedReason } = result;
  const metadata = result.metadata as Record<string, unknown>;
  if (haltedReason === "completed" || haltedReason === "halt_when") return ok(lastText(result.messages));
  if (!isReservedHaltReason(haltedReason)) return halt(haltedReason, metadata.haltResult);
  if (haltedReason === "error") return error(metadata.error);
  return error(`the subagent ended with ${haltedReason}${haltedReason === "max_turns" ? ` (${String(metadata.maxTurns)} model calls) before an answer` : ""}`);
}

function lastText(messages: readonly Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as Message;
    if (m.role === "assistant" && (m as AssistantMessage).metadata?.askUser !== true) return m.content;
  }
  return "";
}
