import { mcpHandler } from "./call-handler.js";
import { isMcpClient, SDK_TIMEOUT_OFF, type McpClientLike } from "./client-like.js";
import { elicitationRouter } from "./elicitation-router.js";
import { requester, serverTakesToolTasks } from "./task-requests.js";
import { listAllTools, skipped, type McpToolAnnotations, type McpToolDefinition } from "./list-tools.js";
import { McpToolsError } from "./mcp-tools-error.js";
import { schemaProblem } from "./schema-shape.js";
import { ToolNamer, type McpToolNaming } from "./tool-names.js";
import { type CompiledSchema, compileSchema } from "../internal.js";
import { defineTool, type Tool } from "../index.js";
import { describe, isPlainRecord } from "../util/safe.js";

/** Options of {@link mcpTools}. */
export interface McpToolsOptions {
  /**
   * Prefix for a single client's tool names (`<prefix>__<name>`); default none. With a record of
   * servers each key is its server's prefix.
   */
  prefix?: string;
  /** The name the model sees for each tool; default {@link defaultToolName}'s. */
  rename?: (naming: McpToolNaming) => string;
  /** Cut each result's text to this many characters, saying so; default `Infinity` (no cap). */
  maxResultChars?: number;
  /** How long listing one server's tools may take, in ms, every page included; default 10,000. */
  listTimeout?: number;
  /** Stops listing. */
  signal?: AbortSignal;
  /**
   * What to do with a tool whose `inputSchema` or `outputSchema` toolrx cannot use. Default: the
   * whole call rejects with an `invalid_schema` {@link McpToolsError}. Given a function, that tool
   * is left out, the server's other tools are kept, and the function is handed the error.
   */
  onInvalidTool?: (error: McpToolsError) => void;
  /**
   * How tools that run as MCP tasks (protocol revision 2025-11-25) are called. A tool whose
   * `execution.taskSupport` is `"required"` is always called as a task when its server declares
   * task support; one that is `"optional"` only with `optional: true`.
   */
  tasks?: McpTaskOptions;
  /**
   * Put a server's `elicitation/create` during a call (revisions before 2026-07-28) to the host as
   * `ask_user`, the call held until `resumeMcpInput` answers it. The client must have been built
   * with `capabilities: { elicitation: { form: {} } }`. Without this option toolrx leaves the
   * client's own handler (if any) alone.
   */
  elicitation?: McpElicitationOptions;
}

/** {@link McpToolsOptions.tasks}. */
export interface McpTaskOptions {
  /** Call `"optional"` task tools as tasks too; default `false`. */
  optional?: boolean;
  /** The task's time to live the client asks for, in ms; default: the server's choice. */
  ttl?: number;
  /** The longest wait between two `tasks/get`, in ms, whatever the server's `pollInterval`; default 5,000. */
  maxPollInterval?: number;
}

/** {@link McpToolsOptions.elicitation}. */
export interface McpElicitationOptions {
  /**
   * How long a call held on a server's question waits for the host's answer, in ms; default
   * 300,000. Past it the server is answered `cancel` (dismissed) and the call is stopped.
   */
  holdFor?: number;
}

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
  const { prefix = "", rename, maxResultChars = Infinity, listTimeout = 10_000, signal, onInvalidTool, tasks = {}, elicitation } = checkOptions(options);
  const plan: ToolPlan = { maxResultChars, tasks, holdFor: elicitation === undefined ? undefined : (elicitation.holdFor ?? 300_000) };
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
  const { maxResultChars, tasks, holdFor } = plan;
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
      },
      // The server's word that a second run changes nothing: what lets `RunOptions.retry` retry it.
      control: { idempotent: annotations.idempotentHint === true },
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

function checkOptions(options: McpToolsOptions): McpToolsOptions {
  if (!isPlainRecord(options)) throw new TypeError(`Expected \`options\` to be an object, got ${describe(options)}`);
  const { prefix, rename, maxResultChars, listTimeout, signal, onInvalidTool, tasks, elicitation } = options;
  checkTasks(tasks);
  if (elicitation !== undefined) {
    if (!isPlainRecord(elicitation)) throw new TypeError(`Expected \`elicitation\` to be an object, got ${describe(elicitation)}`);
    const { holdFor } = elicitation;
    if (holdFor !== undefined && !isDelay(holdFor)) {
      throw new TypeError(`Expected \`elicitation.holdFor\` to be a positive number of ms up to 2147483647, got ${describe(holdFor)}`);
    }
  }
  if (onInvalidTool !== undefined && typeof onInvalidTool !== "function") {
    throw new TypeError(`Expected \`onInvalidTool\` to be a function, got ${describe(onInvalidTool)}`);
  }
  if (prefix !== undefined && (typeof prefix !== "string" || !/^[a-zA-Z0-9_-]*$/.test(prefix))) {
    throw new TypeError(`Expected \`prefix\` to be letters, digits, "_" or "-", got ${describe(prefix)}`);
  }
  if (rename !== undefined && typeof rename !== "function") {
    throw new TypeError(`Expected \`rename\` to be a function, got ${describe(rename)}`);
  }
  if (
    maxResultChars !== undefined &&
    maxResultChars !== Infinity &&
    !(typeof maxResultChars === "number" && Number.isInteger(maxResultChars) && maxResultChars > 0)
  ) {
    throw new TypeError(`Expected \`maxResultChars\` to be a positive integer or Infinity, got ${describe(maxResultChars)}`);
  }
  if (listTimeout !== undefined && !(typeof listTimeout === "number" && listTimeout > 0 && listTimeout <= SDK_TIMEOUT_OFF)) {
    throw new TypeError(`Expected \`listTimeout\` to be a positive number of ms up to 2147483647, got ${describe(listTimeout)}`);
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new TypeError(`Expected \`signal\` to be an AbortSignal, got ${describe(signal)}`);
  }
  return options;
}

function checkTasks(tasks: unknown): void {
  if (tasks === undefined) return;
  if (!isPlainRecord(tasks)) throw new TypeError(`Expected \`tasks\` to be an object, got ${describe(tasks)}`);
  const { optional, ttl, maxPollInterval } = tasks;
  if (optional !== undefined && typeof optional !== "boolean") throw new TypeError(`Expected \`tasks.optional\` to be a boolean, got ${describe(optional)}`);
  if (ttl !== undefined && !isDelay(ttl)) throw new TypeError(`Expected \`tasks.ttl\` to be a positive number of ms up to 2147483647, got ${describe(ttl)}`);
  if (maxPollInterval !== undefined && !isDelay(maxPollInterval)) {
    throw new TypeError(`Expected \`tasks.maxPollInterval\` to be a positive number of ms up to 2147483647, got ${describe(maxPollInterval)}`);
  }
}

function isDelay(value: unknown): boolean {
  return typeof value === "number" && value > 0 && value <= SDK_TIMEOUT_OFF;
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
