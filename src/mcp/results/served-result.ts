import type { ToolEvent } from "../../index.js";
import { isPlainRecord } from "../../util/safe.js";
import { blockOfPart, type McpContentBlock } from "./content-parts.js";

/** A `CallToolResult` as `serveTools` answers it. */
export type CallResult = { content: McpContentBlock[]; isError: boolean; structuredContent?: Record<string, unknown> };

/**
 * The `CallToolResult` of a call's events: the tool message's content as a text block, then its
 * content parts as MCP blocks, `isError` as toolrx decided it, an object value also as
 * `structuredContent`; a question (`ask_user`) is an error result with its text.
 */
export function servedResultOf(events: ToolEvent[]): CallResult {
  let structured: Record<string, unknown> | undefined;
  for (const event of events) {
    switch (event.type) {
      case "tool_execution_completed":
        if (event.result.type === "ok" && isPlainRecord(event.result.value)) structured = event.result.value;
        break;
      case "tool_result_encoded":
      case "tool_halt": {
        const result = textResult(event.isError ? unwrapped(event.content) : event.content, event.isError);
        if (structured !== undefined && !event.isError) result.structuredContent = structured;
        // The tool's content parts follow its text, as MCP content blocks.
        if (event.type === "tool_result_encoded" && event.parts !== undefined) result.content.push(...event.parts.map(blockOfPart));
        return result;
      }
      case "ask_user_requested":
        return textResult(event.question, true);
    }
  }
  return textResult("the tool ended without a result", true);
}

/**
 * An error's text without the `{"error": ...}` wrapper of the default encoder: `isError`
 * already says it is one, and a toolrx client would otherwise wrap it a second time.
 */
function unwrapped(content: string): string {
  if (!content.startsWith('{"error":')) return content;
  try {
    const parsed: unknown = JSON.parse(content);
    if (isPlainRecord(parsed) && typeof parsed.error === "string" && Object.keys(parsed).length === 1) return parsed.error;
  } catch {
    // not JSON after all: send it as it is
  }
  return content;
}

/** One text block. */
export function textResult(text: string, isError: boolean): CallResult {
  return { content: [{ type: "text", text }], isError };
}
