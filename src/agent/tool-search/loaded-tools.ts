import type { Message } from "../../tool/message.js";

/**
 * The deferred tools a conversation's searches loaded, in the order they were found: read from
 * the answers of the search tool's calls, so the set follows the conversation (a resumed run, a
 * restarted process, an edited history) rather than memory. An answer the run's encoder did not
 * write as JSON is read for the tools' quoted names instead.
 */
export function loadedTools(messages: readonly Message[], searchName: string, deferred: ReadonlySet<string>): string[] {
  const searches = new Set<string>();
  const loaded = new Set<string>();
  for (const message of messages) {
    if (message.role === "assistant") {
      for (const call of message.toolCalls ?? []) if (call.name === searchName) searches.add(call.id);
    } else if (message.role === "tool" && searches.has(message.toolCallId) && message.isError !== true) {
      for (const name of namesIn(message.content, deferred)) loaded.add(name);
    }
  }
  return [...loaded];
}

function namesIn(content: string, deferred: ReadonlySet<string>): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    parsed = undefined;
  }
  const list = (parsed as { loaded?: unknown } | undefined)?.loaded;
  if (Array.isArray(list)) return list.filter((n): n is string => typeof n === "string" && deferred.has(n));
  return [...deferred].filter((n) => content.includes(`"${n}"`));
}
