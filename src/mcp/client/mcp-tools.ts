import { mcpHandler } from "./call-handler.js";
import { type McpTraceContext, isMcpClient, type McpClientLike, requester, serverTakesToolTasks } from "../wire/index.js";
import { elicitationRouter } from "./elicitation-router.js";
import { listAllTools, skipped, type McpToolAnnotations, type McpToolDefinition } from "./list-tools.js";
import { McpToolsError } from "./mcp-tools-error.js";
import { checkOptions, type McpTaskOptions, type McpToolsOptions } from "./mcp-tools-options.js";
import { schemaProblem } from "./schema-shape.js";
import { ToolNamer } from "./tool-names.js";
import { type CompiledSchema, compileSchema } from "../../internal.js";
import { defineTool, readToolApp, type Tool, type ToolApp } from "../../index.js";
import { describe, isPlainRecord } from "../../util/safe.js";

export type { McpElicitationOptions, McpTaskOptions, McpToolsOptions } from "./mcp-tools-options.js";

/** What toolrx keeps about an MCP tool, in `tool.metadata.mcp`. */
export interface McpToolMetadata {
  server: string;
  /** The tool's name on the server (the model may see another). */
  name: string;
  title?: string;
  annotations: McpToolAnnotations;
  outputSchema?: Record<string, unknown>;
  /** The tool's `execution.taskSupport`, when the server gave one. */
  taskSupport?: "required" | "optional" | "forbidden";
}

/** What each tool's handler needs beyond its own definition. */
interface ToolPlan {
  readonly maxResultChars: number;
  readonly tasks: McpTaskOptions;
  readonly holdFor: number | undefined;
  readonly trace: McpTraceContext | undefined;
}

/**
 * The tools of one or more connected MCP servers as toolrx tools: run them with
 * `runToolCalls`, `streamToolCalls` or the agent loop, beside local tools, under toolrx's
 * deadlines, concurrency, validation and `onToolError` policy.
 *
 * Every page of each server's list is read. Names follow {@link defaultToolName}: a record of
 * servers prefixes each tool with its key (`github__search`); two tools with one name are an
 * {@link McpToolsError} unless `rename` tells them apart. Each tool's annotations land in
 * `metadata.mcp.annotations`, and `metadata.readOnly`, `metadata.destructive`,
 * `metadata.idempotent`, `metadata.openWorld` carry the hints as booleans.
 *
 * @throws {TypeError} on bad options. Rejects with {@link McpToolsError} when a server cannot
 * be listed or its tools cannot be used.
 *
 * @example
 * const tools = await mcpTools({ github: githubClient, fs: fsClient });
 * tools.map((t) => t.name); // ["github__search_issues", "fs__read_file", ...]
 * await runToolCalls(calls, [...localTools, ...tools]);
 */
export async function mcpTools(servers: McpClientLike | Readonly<Record<string, McpClientLike>>, options: McpToolsOptions = {}): Promise<Tool[]> {
  const {
    prefix = "",
    rename,
    maxResultChars = Infinity,
    listTimeout = 10_000,
    signal,
    onInvalidTool,
    tasks = {},
    elicitation,
    telemetry,
  } = checkOptions(options);
  const holdFor = elicitation === undefined ? undefined : (elicitation.holdFor ?? 300_000);
  const plan: ToolPlan = { maxResultChars, tasks, holdFor, trace: telemetry?.traceContext };
  let entries: [server: string, prefix: string, client: McpClientLike][];
  if (isMcpClient(servers)) {
    entries = [["", prefix, servers]];
  } else if (isPlainRecord(servers)) {
    entries = Object.entries(servers).map(([key, client]) => {
      if (!isMcpClient(client)) {
        throw new TypeError(`Expected server "${key}" to be a connected MCP client (with listTools and callTool), got ${describe(client)}`);
      }
      return [key, key, client];
    });
  } else {
    throw new TypeError(`Expected \`servers\` to be an MCP client or a record of them, got ${describe(servers)}`);
  }
  // Installed before listing, so a client that cannot take the handler fails before any request.
  if (plan.holdFor !== undefined) for (const [, , client] of entries) elicitationRouter(client);
  // Servers are listed at once; names are assigned afterwards in the order given, so the result
  // does not depend on which server answers first. The first failure stops the others: their
  // tools would be thrown away anyway.
  const listings = await listEvery(
    entries.map(([server, , client]) => [server, client]),
    { timeout: listTimeout, signal, onInvalidTool },
  );
  const namer = new ToolNamer(rename);
  const tools: Tool[] = [];
  entries.forEach(([server, serverPrefix, client], i) => {
    const onServer = new Set<string>();
    // listEvery answers one listing per entry, in order.
    for (const definition of listings[i] ?? []) {
      if (onServer.has(definition.name)) {
        throw new McpToolsError("duplicate_name", `tools/list lists tool "${definition.name}" twice`, { server, toolName: definition.name });
      }
      onServer.add(definition.name);
      let tool: Tool;
      try {
        tool = toTool(client, server, namer.assign(server, serverPrefix, definition.name), definition, plan);
      } catch (e) {
        if (!skipped(e, onInvalidTool)) throw e;
        // A skipped tool holds no name: another tool may have it.
        namer.release(server, definition.name);
        continue;
      }
      tools.push(tool);
    }
  });
  return tools;
}

/** Each server's tools, listed at once; the first failure aborts the other listings. */
async function listEvery(
  servers: [server: string, client: McpClientLike][],
  options: { timeout: number; signal: AbortSignal | undefined; onInvalidTool: McpToolsOptions["onInvalidTool"] },
): Promise<McpToolDefinition[][]> {
  const { timeout, signal, onInvalidTool } = options;
  if (servers.length <= 1) return Promise.all(servers.map(([server, client]) => listAllTools(client, { server, timeout, signal, onInvalidTool })));
  const stop = new AbortController();
  const onAbort = () => stop.abort(signal?.reason);
  signal?.addEventListener("abort", onAbort, { once: true });
  if (signal?.aborted) onAbort();
  try {
    return await Promise.all(
      servers.map(([server, client]) =>
        listAllTools(client, { server, timeout, signal: stop.signal, onInvalidTool }).catch((e: unknown) => {
          // Only the first failure is seen (Promise.all); the others end quietly and at once.
          stop.abort(e);
          throw e;
        }),
      ),
    );
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
}

/** The toolrx tool of one listed MCP tool. */
function toTool(client: McpClientLike, server: string, name: string, definition: McpToolDefinition, plan: ToolPlan): Tool {
  const { maxResultChars, tasks, holdFor, trace } = plan;
  const mcpName = definition.name;
  for (const field of ["inputSchema", "outputSchema"] as const) {
    const problem = definition[field] === undefined ? undefined : schemaProblem(definition[field], field);
    if (problem !== undefined) {
      throw new McpToolsError("invalid_schema", `tool "${mcpName}" has a schema that is not JSON Schema: ${problem}`, { server, toolName: mcpName });
    }
  }
  const annotations = definition.annotations ?? {};
  const outputSchema = definition.outputSchema === undefined ? undefined : prepare(definition.outputSchema, server, mcpName, "outputSchema");
  const mcp: McpToolMetadata = { server, name: mcpName, annotations };
  const title = definition.title ?? annotations.title;
  if (typeof title === "string") mcp.title = title;
  if (definition.outputSchema !== undefined) mcp.outputSchema = definition.outputSchema;
  const taskSupport = isPlainRecord(definition.execution) ? definition.execution.taskSupport : undefined;
  if (taskSupport === "required" || taskSupport === "optional" || taskSupport === "forbidden") mcp.taskSupport = taskSupport;
  const request = requester(client);
  const wanted = taskSupport === "required" || (taskSupport === "optional" && tasks.optional === true);
  const handler = mcpHandler({
    client,
    server,
    name,
    mcpName,
    outputSchema,
    maxResultChars,
    request,
    asTask: wanted && request !== undefined && serverTakesToolTasks(client),
    taskTtl: tasks.ttl,
    maxPollInterval: tasks.maxPollInterval ?? 5_000,
    router: holdFor === undefined ? undefined : elicitationRouter(client),
    holdFor: holdFor ?? 0,
    trace,
  });
  try {
    return defineTool({
      name,
      description: definition.description ?? "",
      schema: definition.inputSchema,
      handler,
      metadata: {
        mcp,
        readOnly: annotations.readOnlyHint === true,
        destructive: annotations.destructiveHint !== false && annotations.readOnlyHint !== true,
        idempotent: annotations.idempotentHint === true,
        openWorld: annotations.openWorldHint !== false,
        ...appOf(definition._meta),
      },
      // The server's word that a second run changes nothing: what lets `RunOptions.retry` retry it.
      // Without it the tool has no control at all (`idempotent: false` is the default), so the
      // runner's per-call control lookups and a batch's lanes are skipped, as for any plain tool.
      ...(annotations.idempotentHint === true ? { control: { idempotent: true } } : {}),
    }) as Tool;
  } catch (cause) {
    throw new McpToolsError("invalid_schema", `tool "${mcpName}" has an inputSchema toolrx cannot use: ${messageOf(cause)}`, {
      server,
      toolName: mcpName,
      cause,
    });
  }
}

function prepare(schema: Record<string, unknown>, server: string, toolName: string, field: string): CompiledSchema {
  try {
    return compileSchema(schema, toolName);
  } catch (cause) {
    throw new McpToolsError("invalid_schema", `tool "${toolName}" has an ${field} toolrx cannot use: ${messageOf(cause)}`, { server, toolName, cause });
  }
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * The MCP Apps view a server lists on a tool (`_meta.ui`, or the older `_meta["ui/resourceUri"]`),
 * as the tool's `metadata.app`; none for a malformed one or a URI that is not `ui://`.
 */
function appOf(meta: unknown): { app?: ToolApp } {
  if (!isPlainRecord(meta)) return {};
  const ui = isPlainRecord(meta.ui) ? meta.ui : {};
  const app = readToolApp({ ...ui, resourceUri: ui.resourceUri ?? meta["ui/resourceUri"] });
  return app === undefined ? {} : { app };
}
