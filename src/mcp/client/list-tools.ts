import type { McpClientLike } from "../wire/index.js";
import { McpToolsError } from "./mcp-tools-error.js";
import { isPlainRecord } from "../../util/safe.js";

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

/** How long listing may take, what stops it, and what to do with a tool whose schema is unusable. */
export interface ListOptions {
  server: string;
  timeout: number;
  signal: AbortSignal | undefined;
  /** Given: a tool with an unusable schema is skipped and handed here; absent: it fails the listing. */
  onInvalidTool: ((error: McpToolsError) => void) | undefined;
}

/**
 * Pages toolrx reads from one server at most. A server that hands out a new cursor forever is
 * stopped here even when its pages come back so fast that no timer gets to run in between.
 */
export const MAX_PAGES = 1_000;

/**
 * Every page of a server's tools. A cursor the server already sent, or more than
 * {@link MAX_PAGES} pages, ends the walk with an error instead of looping forever; the whole walk
 * runs under one deadline, checked on every page as well as by a timer (an in-process server can
 * answer page after page without ever letting a timer run).
 */
export async function listAllTools(client: McpClientLike, options: ListOptions): Promise<McpToolDefinition[]> {
  const { server, timeout, signal, onInvalidTool } = options;
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
  const deadline = performance.now() + timeout;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error("tools/list timed out"));
  }, timeout);
  // A deadline must not keep a command-line process alive once everything else is done.
  (timer as { unref?: () => void }).unref?.();
  const timeoutError = (cause?: unknown) =>
    new McpToolsError("list_timeout", `tools/list did not answer within ${timeout} ms`, cause === undefined ? { server } : { server, cause });
  const stopped = new Promise<never>((_, reject) => {
    controller.signal.addEventListener("abort", () => reject(controller.signal.reason), { once: true });
  });
  stopped.catch(() => {});
  try {
    const tools: McpToolDefinition[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let pages = 1; ; pages++) {
      let page: unknown;
      // Each page gets its own signal, tied to the walk's only while the page is pending: 1.x
      // leaves its abort listener on a request's signal after the answer, and would send
      // notifications/cancelled for an answered page when the walk's signal aborts at its end.
      const own = new AbortController();
      const onStop = () => own.abort(controller.signal.reason);
      controller.signal.addEventListener("abort", onStop, { once: true });
      try {
        const params = cursor === undefined ? undefined : { cursor };
        // The SDK's own timeout is out of the way: ours covers the whole walk, not one page.
        const request = client.listTools(params, { signal: own.signal, timeout: 2_147_483_647, cacheMode: "refresh" });
        page = await Promise.race([request, stopped]);
      } catch (cause) {
        if (timedOut) throw timeoutError(cause);
        if (signal?.aborted) throw signal.reason;
        throw new McpToolsError("list_failed", `tools/list failed: ${messageOf(cause)}`, { server, cause });
      } finally {
        controller.signal.removeEventListener("abort", onStop);
      }
      const next = checkPage(page, server, tools, onInvalidTool);
      if (next === undefined) return tools;
      if (signal?.aborted) throw signal.reason;
      if (performance.now() >= deadline) throw timeoutError();
      if (pages >= MAX_PAGES) {
        throw new McpToolsError("cursor_loop", `tools/list sent ${MAX_PAGES} pages and a cursor for more; stopped instead of looping`, { server });
      }
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
function checkPage(page: unknown, server: string, into: McpToolDefinition[], onInvalidTool: ListOptions["onInvalidTool"]): string | undefined {
  if (!isPlainRecord(page) || !Array.isArray(page.tools)) {
    throw new McpToolsError("malformed_list", "tools/list answered something that is not a tool list (expected { tools: [...] })", { server });
  }
  page.tools.forEach((tool: unknown, i: number) => {
    try {
      into.push(checkTool(tool, i, server));
    } catch (e) {
      if (!skipped(e, onInvalidTool)) throw e;
    }
  });
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

/** Whether `e` is an unusable schema the caller chose to skip: it is handed to them, and the tool left out. */
export function skipped(e: unknown, onInvalidTool: ListOptions["onInvalidTool"]): boolean {
  if (onInvalidTool === undefined || !(e instanceof McpToolsError) || e.reason !== "invalid_schema") return false;
  onInvalidTool(e);
  return true;
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
