import { kindOf } from "../shape.js";
import type { CheckConversationOptions, IssueList } from "./conversation-issue.js";
import { recordAt, stringAt } from "./fields.js";

/** The calls of one assistant message, waiting for their tool messages. */
interface OpenCalls {
  readonly at: number;
  readonly calls: readonly { readonly id: string; readonly name: string; readonly index: number }[];
  readonly answered: Set<string>;
}

const TEXT_ROLES = new Set(["system", "developer", "user"]);

/**
 * OpenAI Chat Completions' rules: an assistant message with `tool_calls` is followed at once by
 * one `tool` message per call (nothing else in between, no call left out, none answered twice),
 * and a `tool` message only ever answers a call of the assistant message it follows.
 */
export function checkChat(messages: readonly unknown[], options: CheckConversationOptions, issues: IssueList): void {
  let open: OpenCalls | undefined;
  const close = (before: number | undefined) => {
    if (open === undefined) return;
    for (const call of open.calls) {
      if (open.answered.has(call.id)) continue;
      const where = before === undefined ? "by the end of the conversation" : `before message ${before}`;
      issues.add(
        "missing_tool_result",
        [open.at, "tool_calls", call.index],
        `Tool call "${call.id}" (${call.name}) of message ${open.at} has no tool message ${where}: Chat Completions wants one tool message per call right after the assistant message`,
      );
    }
    open = undefined;
  };

  messages.forEach((value, i) => {
    const message = recordAt(value, [i], `message ${i}`, issues);
    if (message === undefined) return;
    const role = message.role;
    if (role === "tool") {
      const id = stringAt(message, "tool_call_id", [i], issues, true);
      contentAt(message, i, issues, false);
      if (id === undefined) return;
      if (open === undefined) {
        issues.add(
          "orphan_tool_result",
          [i, "tool_call_id"],
          `Tool message ${i} answers "${id}", but it does not follow an assistant message with \`tool_calls\` (or their other tool messages)`,
        );
      } else if (!open.calls.some((call) => call.id === id)) {
        issues.add("orphan_tool_result", [i, "tool_call_id"], `Tool message ${i} answers "${id}", which assistant message ${open.at} did not call`);
      } else if (open.answered.has(id)) {
        issues.add("duplicate_tool_result", [i, "tool_call_id"], `Tool message ${i} answers "${id}" a second time`);
      } else {
        open.answered.add(id);
      }
      return;
    }
    close(i);
    if (typeof role === "string" && TEXT_ROLES.has(role)) contentAt(message, i, issues, false);
    else if (role === "assistant") open = assistant(message, i, issues);
    else if (role !== "function") {
      issues.add(
        "invalid_role",
        [i, "role"],
        `Expected \`role\` of message ${i} to be "system", "developer", "user", "assistant" or "tool", got ${typeof role === "string" ? JSON.stringify(role) : kindOf(role)}`,
      );
    }
  });
  if (!options.pendingCalls) close(undefined);
}

function assistant(message: Record<string, unknown>, i: number, issues: IssueList): OpenCalls | undefined {
  const toolCalls = message.tool_calls;
  const hasCalls = Array.isArray(toolCalls) && toolCalls.length > 0;
  if (toolCalls !== undefined && toolCalls !== null && !Array.isArray(toolCalls)) {
    issues.add("invalid_type", [i, "tool_calls"], `Expected \`tool_calls\` of message ${i} to be an array, got ${kindOf(toolCalls)}`);
  } else if (Array.isArray(toolCalls) && toolCalls.length === 0) {
    issues.add("invalid_type", [i, "tool_calls"], `Expected \`tool_calls\` of message ${i} to hold at least one call: leave it out for a turn without calls`);
  }
  // A turn that only calls tools may have `content: null`; any other turn needs its text.
  contentAt(message, i, issues, hasCalls || typeof message.refusal === "string");
  if (!hasCalls) return undefined;
  const calls: { id: string; name: string; index: number }[] = [];
  (toolCalls as unknown[]).forEach((value, j) => {
    const path = [i, "tool_calls", j];
    const call = recordAt(value, path, `tool call ${j} of message ${i}`, issues);
    if (call === undefined) return;
    const id = stringAt(call, "id", path, issues, true);
    const fn =
      call.type === "custom"
        ? recordAt(call.custom, [...path, "custom"], "`custom`", issues)
        : recordAt(call.function, [...path, "function"], "`function`", issues);
    const name = fn === undefined ? undefined : stringAt(fn, "name", [...path, call.type === "custom" ? "custom" : "function"], issues, true);
    if (fn !== undefined && call.type !== "custom") stringAt(fn, "arguments", [...path, "function"], issues);
    if (id === undefined) return;
    if (calls.some((c) => c.id === id)) {
      issues.add("duplicate_tool_call", [...path, "id"], `Tool call ${j} of message ${i} reuses the id "${id}": its tool message could answer either call`);
      return;
    }
    calls.push({ id, name: name ?? "?", index: j });
  });
  return { at: i, calls, answered: new Set() };
}

/** `content`: a string or an array of parts (`null` allowed when `nullable`). */
function contentAt(message: Record<string, unknown>, i: number, issues: IssueList, nullable: boolean): void {
  const content = message.content;
  if (typeof content === "string" || Array.isArray(content)) return;
  if (nullable && (content === null || content === undefined)) return;
  issues.add(
    "invalid_type",
    [i, "content"],
    `Expected \`content\` of message ${i} (${typeof message.role === "string" ? message.role : kindOf(message.role)}) to be a string or an array of parts, got ${kindOf(content)}`,
  );
}
