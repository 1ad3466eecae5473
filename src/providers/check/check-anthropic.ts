import { isRecord, kindOf } from "../shape.js";
import type { CheckConversationOptions, IssueList } from "./conversation-issue.js";
import { recordAt, stringAt } from "./fields.js";
import { isHostedBlock } from "../anthropic/hosted-blocks.js";

interface ToolUses {
  readonly at: number;
  readonly uses: readonly { readonly id: string; readonly name: string; readonly index: number }[];
}

/**
 * Anthropic Messages' rules: only `user` and `assistant` messages (the system prompt is a
 * parameter), alternating; no empty content, except the final assistant message; `tool_use`
 * blocks only from the assistant, each answered by a `tool_result` block in the very next
 * message, a user message whose `tool_result` blocks come before any other block; a
 * `tool_result` answers a `tool_use` of the message just before it, once; a block Anthropic ran
 * itself is the assistant's, and its result (`web_search_tool_result`…) answers a
 * `server_tool_use` before it in the same message; `thinking` and `redacted_thinking` blocks
 * only in assistant messages, with their `signature` or `data`.
 */
export function checkAnthropic(messages: readonly unknown[], options: CheckConversationOptions, issues: IssueList): void {
  let previousRole: unknown;
  let waiting: ToolUses | undefined;
  messages.forEach((value, i) => {
    const message = recordAt(value, [i], `message ${i}`, issues);
    const asked = waiting;
    waiting = undefined;
    if (message === undefined) {
      previousRole = undefined;
      return;
    }
    const role = message.role;
    if (role !== "user" && role !== "assistant") {
      const hint = role === "system" ? ": the system prompt goes in the request's `system`" : "";
      issues.add(
        "invalid_role",
        [i, "role"],
        `Expected \`role\` of message ${i} to be "user" or "assistant", got ${typeof role === "string" ? JSON.stringify(role) : kindOf(role)}${hint}`,
      );
    } else if (role === previousRole) {
      issues.add("roles_not_alternating", [i, "role"], `Message ${i} is a second ${role} message in a row: user and assistant messages must alternate`);
    }
    previousRole = role;
    const answered = new Set<string>();
    waiting = content(message, i, i === messages.length - 1, asked, answered, issues);
    if (asked !== undefined) {
      for (const use of asked.uses) {
        if (answered.has(use.id)) continue;
        issues.add(
          "missing_tool_result",
          [asked.at, "content", use.index],
          `tool_use "${use.id}" (${use.name}) of message ${asked.at} has no tool_result in the next message (${i})`,
        );
      }
    }
  });
  if (waiting !== undefined && !options.pendingCalls) {
    const { at, uses } = waiting;
    for (const use of uses)
      issues.add(
        "missing_tool_result",
        [at, "content", use.index],
        `tool_use "${use.id}" (${use.name}) of message ${at} has no tool_result: the conversation ends after it`,
      );
  }
}

/** Check message `i`'s content; returns the `tool_use` blocks the next message must answer. */
function content(
  message: Record<string, unknown>,
  i: number,
  last: boolean,
  asked: ToolUses | undefined,
  answered: Set<string>,
  issues: IssueList,
): ToolUses | undefined {
  const role = message.role;
  // The API lets only the final assistant message be empty: it is where the reply continues.
  const mayBeEmpty = last && role === "assistant";
  const body = message.content;
  if (typeof body === "string") {
    if (body.trim() === "" && !(mayBeEmpty && body === ""))
      issues.add("empty_content", [i, "content"], `Message ${i} (${roleName(role)}) has empty content, which the Messages API refuses`);
    return undefined;
  }
  if (!Array.isArray(body)) {
    issues.add("invalid_type", [i, "content"], `Expected \`content\` of message ${i} to be a string or an array of content blocks, got ${kindOf(body)}`);
    return undefined;
  }
  if (body.length === 0 && !mayBeEmpty)
    issues.add("empty_content", [i, "content"], `Message ${i} (${roleName(role)}) has no content blocks, which the Messages API refuses`);
  const uses: { id: string; name: string; index: number }[] = [];
  /** The message's server tool calls not answered yet by their result, which Anthropic puts in the same message. */
  const serverUses = new Map<string, number>();
  let other = false;
  body.forEach((value, j) => {
    const path = [i, "content", j];
    const block = recordAt(value, path, `content block ${j} of message ${i}`, issues);
    if (block === undefined) return;
    if (block.type === "tool_result") {
      if (role !== "user")
        issues.add("misplaced_block", path, `tool_result block ${j} of message ${i} is in an ${roleName(role)} message: tool results go in a user message`);
      else if (other)
        issues.add(
          "misplaced_block",
          path,
          `tool_result block ${j} of message ${i} comes after other content: tool_result blocks come first in a user message`,
        );
      const id = stringAt(block, "tool_use_id", path, issues, true);
      if (id !== undefined) pair(id, [...path, "tool_use_id"], i, asked, answered, issues);
      if (block.content !== undefined && typeof block.content !== "string" && !Array.isArray(block.content)) {
        issues.add(
          "invalid_type",
          [...path, "content"],
          `Expected \`content\` of tool_result block ${j} of message ${i} to be a string or an array of blocks, got ${kindOf(block.content)}`,
        );
      }
      return;
    }
    other = true;
    if (block.type === "text") {
      const text = stringAt(block, "text", path, issues);
      if (text !== undefined && text.trim() === "")
        issues.add("empty_content", [...path, "text"], `Text block ${j} of message ${i} is empty, which the Messages API refuses`);
    } else if (block.type === "tool_use") {
      if (role !== "assistant")
        issues.add("misplaced_block", path, `tool_use block ${j} of message ${i} is in a ${roleName(role)} message: only the assistant calls tools`);
      const id = stringAt(block, "id", path, issues, true);
      const name = stringAt(block, "name", path, issues, true);
      if (!isRecord(block.input))
        issues.add("invalid_type", [...path, "input"], `Expected \`input\` of tool_use block ${j} of message ${i} to be an object, got ${kindOf(block.input)}`);
      if (id === undefined) return;
      if (uses.some((use) => use.id === id)) issues.add("duplicate_tool_call", [...path, "id"], `tool_use block ${j} of message ${i} reuses the id "${id}"`);
      else if (role === "assistant") uses.push({ id, name: name ?? "?", index: j });
    } else if (block.type === "thinking" || block.type === "redacted_thinking") {
      // The model's own reasoning, sent back: only in its own turn, with the state the API signed.
      if (role !== "assistant")
        issues.add(
          "misplaced_block",
          path,
          `${block.type} block ${j} of message ${i} is in a ${roleName(role)} message: only the assistant's turn has its thinking`,
        );
      if (block.type === "thinking") {
        stringAt(block, "thinking", path, issues);
        stringAt(block, "signature", path, issues, true);
      } else stringAt(block, "data", path, issues, true);
    } else if (typeof block.type === "string" && isHostedBlock(block.type)) {
      hostedBlock(block, path, role, serverUses, issues);
    } else if (typeof block.type !== "string") {
      issues.add("invalid_type", [...path, "type"], `Expected \`type\` of content block ${j} of message ${i} to be a string, got ${kindOf(block.type)}`);
    }
  });
  // The final assistant message may stop between a server tool's call and its result (`pause_turn`): the reply continues there.
  if (!mayBeEmpty)
    for (const [id, j] of serverUses)
      issues.add("missing_tool_result", [i, "content", j], `server_tool_use "${id}" of message ${i} has no result block after it in the same message`);
  return uses.length > 0 ? { at: i, uses } : undefined;
}

/**
 * A block Anthropic ran itself: only the assistant's, and a result answers a `server_tool_use`
 * earlier in the same message, once.
 */
function hostedBlock(block: Record<string, unknown>, path: (string | number)[], role: unknown, serverUses: Map<string, number>, issues: IssueList): void {
  const [i, , j] = path as [number, string, number];
  if (role !== "assistant") {
    issues.add(
      "misplaced_block",
      path,
      `${block.type} block ${j} of message ${i} is in a ${roleName(role)} message: only the assistant's turn holds what Anthropic ran`,
    );
    return;
  }
  if (block.type === "server_tool_use") {
    const id = stringAt(block, "id", path, issues, true);
    if (id !== undefined) serverUses.set(id, j);
    return;
  }
  if (block.type === "container_upload") return;
  const id = stringAt(block, "tool_use_id", path, issues, true);
  if (id === undefined) return;
  if (serverUses.delete(id)) return;
  issues.add(
    "orphan_tool_result",
    [...path, "tool_use_id"],
    `${block.type} block ${j} of message ${i} answers "${id}", which no server_tool_use before it in the message made`,
  );
}

function pair(id: string, path: (string | number)[], i: number, asked: ToolUses | undefined, answered: Set<string>, issues: IssueList): void {
  if (asked === undefined || !asked.uses.some((use) => use.id === id)) {
    issues.add("orphan_tool_result", path, `tool_result for "${id}" in message ${i} answers no tool_use of the message before it`);
  } else if (answered.has(id)) {
    issues.add("duplicate_tool_result", path, `tool_result for "${id}" in message ${i} answers it a second time`);
  } else {
    answered.add(id);
  }
}

/** A role for a message, whatever was passed as one. */
function roleName(role: unknown): string {
  return typeof role === "string" ? role : kindOf(role);
}
