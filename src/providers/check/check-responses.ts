import { kindOf } from "../shape.js";
import type { CheckConversationOptions, IssueList } from "./conversation-issue.js";
import { recordAt, stringAt } from "./fields.js";

const ROLES = new Set(["system", "developer", "user", "assistant"]);

interface Call {
  readonly at: number;
  readonly name: string;
  answered: boolean;
}

/**
 * OpenAI Responses' rules, for an `input` sent without `previous_response_id`: every
 * `function_call` has exactly one `function_call_output` with its `call_id`, after it; an
 * output answers a call made earlier in the input; two calls never share a `call_id` (outputs
 * are paired by id across the whole input); a `reasoning` item has its `id`. Item types other
 * than messages, reasoning, function calls and their outputs (built-in tools) are not checked.
 */
export function checkResponses(items: readonly unknown[], options: CheckConversationOptions, issues: IssueList): void {
  const calls = new Map<string, Call>();
  let lastMessage = -1;
  items.forEach((value, i) => {
    const item = recordAt(value, [i], `input item ${i}`, issues);
    if (item === undefined) return;
    const type = item.type;
    if (type === "function_call") {
      const id = stringAt(item, "call_id", [i], issues, true);
      const name = stringAt(item, "name", [i], issues, true);
      stringAt(item, "arguments", [i], issues);
      if (id === undefined) return;
      if (calls.has(id)) {
        issues.add(
          "duplicate_tool_call",
          [i, "call_id"],
          `Function call ${i} reuses the call_id "${id}" of item ${(calls.get(id) as Call).at}: an output could answer either`,
        );
        return;
      }
      calls.set(id, { at: i, name: name ?? "?", answered: false });
    } else if (type === "function_call_output") {
      const id = stringAt(item, "call_id", [i], issues, true);
      if (typeof item.output !== "string" && !Array.isArray(item.output)) {
        issues.add("invalid_type", [i, "output"], `Expected \`output\` of item ${i} to be a string or an array, got ${kindOf(item.output)}`);
      }
      if (id === undefined) return;
      const call = calls.get(id);
      if (call === undefined)
        issues.add("orphan_tool_result", [i, "call_id"], `Function call output ${i} answers "${id}", but no function call before it has that call_id`);
      else if (call.answered) issues.add("duplicate_tool_result", [i, "call_id"], `Function call output ${i} answers "${id}" a second time`);
      else call.answered = true;
    } else if (type === "reasoning") {
      // A reasoning item sent back is the API's own: it finds it again by its id.
      stringAt(item, "id", [i], issues, true);
    } else if (type === undefined || type === "message") {
      lastMessage = i;
      const role = item.role;
      if (typeof role !== "string" || !ROLES.has(role)) {
        issues.add(
          "invalid_role",
          [i, "role"],
          `Expected \`role\` of item ${i} to be "system", "developer", "user" or "assistant", got ${typeof role === "string" ? JSON.stringify(role) : kindOf(role)}`,
        );
      }
      if (typeof item.content !== "string" && !Array.isArray(item.content)) {
        issues.add("invalid_type", [i, "content"], `Expected \`content\` of item ${i} to be a string or an array of parts, got ${kindOf(item.content)}`);
      }
    } else if (typeof type !== "string") {
      issues.add("invalid_type", [i, "type"], `Expected \`type\` of item ${i} to be a string, got ${kindOf(type)}`);
    }
  });
  for (const [id, call] of calls) {
    if (call.answered || (options.pendingCalls && call.at > lastMessage)) continue;
    issues.add("missing_tool_result", [call.at], `Function call "${id}" (${call.name}) at item ${call.at} has no function_call_output`);
  }
  issues.issues.sort((a, b) => (a.path[0] as number) - (b.path[0] as number));
}
