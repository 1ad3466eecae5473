import { kindOf } from "../shape.js";
import type { CheckConversationOptions, IssueList } from "./conversation-issue.js";
import { recordAt, stringAt } from "./fields.js";
import { isHostedItem } from "../openai/hosted-items.js";

const ROLES = new Set(["system", "developer", "user", "assistant"]);

/**
 * Whether `type` is a tool item: a function call, or an item OpenAI ran itself. Those OpenAI ran
 * hold their own results; all but a tool search's call and output need their `id` to be taken
 * back (`Missing required parameter: 'input[n].id'`).
 */
function toolItem(type: unknown): "function" | "hosted" | "search" | undefined {
  if (type === "function_call") return "function";
  if (typeof type !== "string" || !isHostedItem({ type })) return undefined;
  return type.startsWith("tool_search_") ? "search" : "hosted";
}

interface Call {
  readonly at: number;
  readonly name: string;
  answered: boolean;
}

/**
 * OpenAI Responses' rules, for an `input` sent without `previous_response_id`: every
 * `function_call` has exactly one `function_call_output` with its `call_id`, after it; an
 * output answers a call made earlier in the input; two calls never share a `call_id` (outputs
 * are paired by id across the whole input); a `reasoning` item has its `id`. An item OpenAI ran
 * itself (web search, file search, code interpreter, image generation, MCP call and listing) has
 * its `id`, and no two tool items share an `id` (the API refuses a duplicate item). Those items
 * carry their own results, so there is nothing more to pair; a tool search's call and output are
 * not paired here, as the API does not say it refuses one without the other. Other item types
 * are not checked.
 */
export function checkResponses(items: readonly unknown[], options: CheckConversationOptions, issues: IssueList): void {
  const calls = new Map<string, Call>();
  /** The first tool item with each `id`. */
  const ids = new Map<string, number>();
  let lastMessage = -1;
  items.forEach((value, i) => {
    const item = recordAt(value, [i], `input item ${i}`, issues);
    if (item === undefined) return;
    const type = item.type;
    const tool = toolItem(type);
    if (tool !== undefined) toolItemId(item, tool === "hosted", i, ids, issues);
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

/** A tool item's `id`: there when the API requires it, and used by no tool item before it. */
function toolItemId(item: Record<string, unknown>, idRequired: boolean, i: number, ids: Map<string, number>, issues: IssueList): void {
  const id = idRequired ? stringAt(item, "id", [i], issues, true) : item.id;
  if (typeof id !== "string" || id === "") return;
  const first = ids.get(id);
  if (first === undefined) ids.set(id, i);
  else
    issues.add(
      "duplicate_tool_call",
      [i, "id"],
      `Item ${i} (${String(item.type)}) repeats the id "${id}" of item ${first}: the Responses API refuses two input items with one id`,
    );
}
