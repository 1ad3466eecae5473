import { isPlainRecord } from "../tool/tool-call.js";
import type { McpClientLike } from "./client-like.js";
import { McpToolsError } from "./mcp-tools-error.js";

/** A tool as a server lists it, checked for the fields toolrx relies on. */
export interface McpToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: McpToolAnnotations;
  [key: string]: unknown;
}

/** The hints a server gives about a tool (all optional, all untrusted). */
export interface McpToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
  [key: string]: unknown;
}

/** How long listing may take and what stops it. */
export interface ListOptions {
  server: string;
  timeout: number;
  signal: AbortSignal | undefined;
}

/**
 * Every page of a server's tools. A cursor the server already sent ends the walk with an error
 * instead of looping forever; the whole walk runs under one deadline.
 */
export async function listAllTools(client: McpClientLike, options: ListOptions): Promise<McpToolDefinition[]> {
  const { server, timeout, signal } = options;
  const capabilities = (client as { getServerCapabilities?: () => unknown }).getServerCapabilities?.();
  // A closed v2 client answers an empty list instead of failing: a server that is down would
  // look like a server with no tools.
  if ("getServerCapabilities" in client && !isPlainRecord(capabilities)) {
    throw new McpToolsError("list_failed", "tools/list failed: the client is not connected (no initialize handshake)", { server });
  }
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener("abort", onAbort, { once: true });
  if (signal?.aborted) onAbort();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error("tools/list timed out"));
  }, timeout);
  const stopped = new Promise<never>((_, reject) => {
    controller.signal.addEventListener("abort", () => reject(controller.signal.reason), { once: true });
  });
  stopped.catch(() => {});
  try {
    const tools: McpToolDefinition[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (;;) {
      let page: unknown;
      try {
        const params = cursor === undefined ? undefined : { cursor };
        // The SDK's own timeout is out of the way: ours covers the whole walk, not one page.
        const request = client.listTools(params, { signal: controller.signal, timeout: 2_147_483_647, cacheMode: "refresh" });
        page = await Promise.race([request, stopped]);
      } catch (cause) {
        if (timedOut) {
          throw new McpToolsError("list_timeout", `tools/list did not answer within ${timeout} ms`, { server, cause });
        }
        if (signal?.aborted) throw signal.reason;
        throw new McpToolsError("list_failed", `tools/list failed: ${messageOf(cause)}`, { server, cause });
      }
      const next = checkPage(page, server, tools);
      if (next === undefined) return tools;
      if (seen.has(next)) {
        throw new McpToolsError("cursor_loop", `tools/list sent cursor ${JSON.stringify(next)} twice; stopped instead of looping`, { server });
      }
      seen.add(next);
      cursor = next;
    }
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
    if (!controller.signal.aborted) controller.abort();
  }
}

/** Check one page, add its tools to `into`, and return its next cursor. */
function checkPage(page: unknown, server: string, into: McpToolDefinition[]): string | undefined {
  if (!isPlainRecord(page) || !Array.isArray(page.tools)) {
    throw new McpToolsError("malformed_list", "tools/list answered something that is not a tool list (expected { tools: [...] })", { server });
  }
  page.tools.forEach((tool: unknown, i: number) => into.push(checkTool(tool, i, server)));
  const next = page.nextCursor;
  if (next === undefined || next === null || next === "") return undefined;
  if (typeof next !== "string") {
    throw new McpToolsError("malformed_list", `tools/list answered a nextCursor that is not a string`, { server });
  }
  return next;
}

function checkTool(tool: unknown, i: number, server: string): McpToolDefinition {
  if (!isPlainRecord(tool) || typeof tool.name !== "string" || tool.name === "") {
    throw new McpToolsError("malformed_list", `tool at index ${i} of tools/list has no name`, { server });
  }
  const toolName = tool.name;
  if (tool.description !== undefined && typeof tool.description !== "string") {
    throw new McpToolsError("malformed_list", `tool "${toolName}" has a description that is not a string`, { server, toolName });
  }
  if (!isPlainRecord(tool.inputSchema)) {
    throw new McpToolsError("invalid_schema", `tool "${toolName}" has no inputSchema object`, { server, toolName });
  }
  if (tool.outputSchema !== undefined && !isPlainRecord(tool.outputSchema)) {
    throw new McpToolsError("invalid_schema", `tool "${toolName}" has an outputSchema that is not an object`, { server, toolName });
  }
  if (tool.annotations !== undefined && !isPlainRecord(tool.annotations)) {
    throw new McpToolsError("malformed_list", `tool "${toolName}" has annotations that are not an object`, { server, toolName });
  }
  return tool as McpToolDefinition;
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
