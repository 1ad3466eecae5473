import { lastValueFrom, toArray } from "rxjs";
import { availableCores } from "../../util/cores.js";
import { SDK_TIMEOUT_OFF, isV2Server, setRequestHandler, type McpServerLike, checkTelemetry, type McpServerTelemetry } from "../wire/index.js";
import { ConcurrencyGate } from "./concurrency-gate.js";
import { askApproval } from "./serve-approval.js";
import {
  type ServeTaskOptions,
  servedAsTask,
  serveTaskRequests,
  startTask,
  taskServing,
  type TaskRun,
  optsIntoTasks,
  TASKS_EXTENSION,
} from "../tasks/index.js";
import {
  type ApprovalMessage,
  approve,
  type ClientChannel,
  isToolResolver,
  type PendingApproval,
  type RunOptions,
  streamToolCalls,
  type Tool,
  type ToolCall,
  type ToolEvent,
  toolAppOf,
  toolJsonSchema,
  type ToolResolver,
} from "../../index.js";
import { CLIENT_CHANNEL, resendsInFlight, resolveOptions } from "../../internal.js";
import { describe, isPlainRecord } from "../../util/safe.js";
import { serveLogging } from "./serve-logging.js";
import { channelOf, statusTo } from "./serve-channel.js";
import { servedResultOf, textResult } from "../results/index.js";
import { clientChannelOf } from "./serve-client-channel.js";

/** Options of {@link serveTools}: those of `runToolCalls`, applied on the server side. */
export interface ServeToolsOptions extends Omit<RunOptions, "signal" | "approvals"> {
  /** Calls running at once across all requests of this server; default `2 × cores`. */
  maxConcurrency?: number;
  /**
   * How long the client's user may take to approve a call to a tool with `needsApproval`, in ms;
   * default 300,000 (5 minutes). Past it the call is refused, not run.
   */
  approvalTimeout?: number;
  /**
   * Serve long tools as MCP tasks (protocol revision 2025-11-25): a client that asks for a task
   * gets one at once, follows it with `tasks/get`, takes its result with `tasks/result`, and
   * `tasks/cancel` aborts the tool's `ctx.signal`. A 2.x server also declares the tasks extension
   * of revision 2026-07-28 (`io.modelcontextprotocol/tasks`): a call that opted in gets a task
   * (`resultType: "task"`), whose `tasks/get` carries its result. Default: no tasks.
   */
  tasks?: ServeTaskOptions;
  /**
   * `toolrx/otel`'s `telemetry()`: calls run through its traced runner, and a `tools/call` whose
   * `_meta` carries a W3C trace context (`traceparent`, `tracestate`: MCP 2026-07-28; `mcpTools`
   * with `telemetry`) has its `execute_tool` span under the client's span, in the client's trace.
   */
  telemetry?: McpServerTelemetry;
}

/**
 * Serve toolrx tools (or a resolver) from an MCP server: `tools/list` lists them with their
 * JSON Schemas, and each `tools/call` runs through toolrx with its deadlines, argument
 * validation, `onToolError` policy and encoder, at most `maxConcurrency` calls at once across
 * all requests. A client's `notifications/cancelled` aborts the handler's `ctx.signal`.
 *
 * Results become `CallToolResult`s: the tool message's content as one text block (an error's
 * text without the default encoder's `{"error": ...}` wrapper, since `isError` says it), `isError`
 * as toolrx decided it, and an `ok` value that is an object also as `structuredContent`. A
 * handler's `ask_user` answers `isError: true` with the question; a halt answers its content.
 * A handler's `ctx.progress` goes out as a progress notification when the client asked for
 * progress.
 *
 * A call the runner holds for approval (`needsApproval`; a function rule is asked first) runs
 * only once the client's user approved it through MCP elicitation: a form with the arguments and one `approve` field,
 * sent as a request (protocol revisions before 2026-07-28) or as an `input_required` result the
 * client answers by retrying the call (2026-07-28). A client without form elicitation, a decline,
 * a dismissal, an error or `approvalTimeout` refuses the call with an `isError` result that says
 * why; it never runs unasked.
 *
 * @throws {TypeError} on bad options, before anything is registered.
 *
 * @example
 * const server = new Server({ name: "weather", version: "1.0.0" }, { capabilities: { tools: {} } });
 * serveTools(server, [weather], { toolTimeout: 10_000 });
 * await server.connect(new StdioServerTransport());
 */
export function serveTools(server: McpServerLike, tools: readonly Tool[] | ToolResolver, options: ServeToolsOptions = {}): void {
  if (typeof server !== "object" || server === null || typeof server.setRequestHandler !== "function") {
    throw new TypeError(`Expected \`server\` to be a low-level MCP Server (with setRequestHandler), got ${describe(server)}`);
  }
  if (!isPlainRecord(options)) throw new TypeError(`Expected \`options\` to be an object, got ${describe(options)}`);
  const { maxConcurrency = 2 * availableCores(), approvalTimeout = 300_000, tasks: taskOptions, telemetry, ...runOptions }: ServeToolsOptions = options;
  checkTelemetry(telemetry, true);
  const stream = telemetry?.streamToolCalls ?? streamToolCalls;
  const serving = taskServing(taskOptions);
  if (!Number.isInteger(maxConcurrency) || maxConcurrency < 1) {
    throw new TypeError(`Expected \`maxConcurrency\` to be a positive integer, got ${describe(maxConcurrency)}`);
  }
  if (!(typeof approvalTimeout === "number" && approvalTimeout > 0 && approvalTimeout <= SDK_TIMEOUT_OFF)) {
    throw new TypeError(`Expected \`approvalTimeout\` to be a positive number of ms up to 2147483647, got ${describe(approvalTimeout)}`);
  }
  resolveOptions(runOptions, 1); // the same TypeErrors as runToolCalls, now rather than on the first call
  const list = listOf(tools);
  const gate = new ConcurrencyGate(maxConcurrency);
  // Ids unique beyond this server instance (a server per request restarts the count), so an
  // `approvalLedger` shared between instances never mistakes one call for another.
  const idPrefix = `mcp-${Math.random().toString(36).slice(2, 10)}`;
  let ids = 0;

  /** One call through the runner, under `signal`, its reports to `onCallReport`, its questions to `client`, with the approvals given. */
  const streamedCall =
    (call: ToolCall) =>
    (signal: AbortSignal, onCallReport: RunOptions["onCallReport"], client?: ClientChannel, meta?: Record<string, unknown>) =>
    async (approvals: ApprovalMessage[] | undefined): Promise<ToolEvent[]> => {
      const release = await gate.acquire(signal);
      try {
        const opts = { ...runOptions, approvals, onCallReport, signal, maxConcurrency: 1, [CLIENT_CHANNEL]: client };
        // Subscribed under the client's span, which the traced runner takes as the calls' parent.
        const events = () => lastValueFrom(stream([call], tools, opts).pipe(toArray()));
        return await (telemetry === undefined ? events() : telemetry.traceContext.continue(meta, events));
      } finally {
        release();
      }
    };
  // A task's call has the task's id: on toolrx/bullmq its job id derives from it, so a server
  // started again (tasks.records) follows the same job.
  const runTask: TaskRun = async (taskId, call, signal, status) =>
    servedResultOf(await streamedCall({ id: taskId, ...call })(signal, statusTo(status, runOptions.onCallReport))(undefined));

  if (serving === undefined) server.registerCapabilities?.({ tools: {} });
  else {
    const capabilities = { tools: {}, tasks: { cancel: {}, requests: { tools: { call: {} } } } };
    // A 2.x server also declares the tasks extension, which its 2026-07-28 clients see.
    server.registerCapabilities?.(isV2Server(server) ? { ...capabilities, extensions: { [TASKS_EXTENSION]: {} } } : capabilities);
    serveTaskRequests(server, serving, runTask, (call) =>
      resendsInFlight(
        list().find((t) => t.name === call.name),
        runOptions,
      ),
    );
  }
  // A tool's ctx.log goes to the client as notifications/message, filtered by logging/setLevel.
  const logging = serveLogging(server);
  setRequestHandler(server, "tools/list", async () => ({
    tools: list().map((tool) => {
      const described = describeTool(tool);
      if (servedAsTask(tool, serving)) described.execution = { taskSupport: serving?.support };
      return described;
    }),
  }));
  setRequestHandler(server, "tools/call", async (request, rctx) => {
    const name = request.params?.name;
    const args = request.params?.arguments ?? {};
    const known = list();
    const tool = typeof name === "string" ? known.find((t) => t.name === name) : undefined;
    if (tool === undefined) {
      const names = known.map((t) => t.name).join(", ");
      return textResult(`Unknown tool: ${String(name)}. Tools: ${names}`, true);
    }
    if (!isPlainRecord(args)) return textResult(`Expected the arguments of tool ${tool.name} to be an object`, true);
    if (serving !== undefined && servedAsTask(tool, serving)) {
      // A task answers at once; its call runs under the task's signal, its progress as the task's status.
      // On 2026-07-28 the client opts in per request (tasks extension); one that did not is answered at once.
      const ext = rctx.inputRequired && optsIntoTasks(rctx.clientCapabilities());
      if (ext || request.params?.task !== undefined) return startTask(serving, { name: tool.name, arguments: args }, runTask, ext);
      // 2025-11-25: a tool listed `taskSupport: "required"` is called as a task, or the server
      // MUST answer -32601 (1.x's McpServer raises it too, then wraps it in an isError result); 2026-07-28 has no taskSupport to break.
      if (serving.support === "required" && !rctx.inputRequired) {
        throw Object.assign(new Error(`Tool ${tool.name} requires task augmentation (taskSupport: "required")`), { code: -32601 });
      }
    }
    const streamed = streamedCall({ id: `${idPrefix}-${++ids}`, name: tool.name, arguments: args });
    const meta = request.params?._meta;
    const run = streamed(rctx.signal, channelOf(rctx, meta?.progressToken, logging, runOptions.onCallReport), clientChannelOf(rctx), meta);
    // The runner holds a call that needs approval (a function rule asked first, with the
    // validated arguments); the user is asked with no slot held, and an approved call runs again.
    const events = await run(undefined);
    const pending = heldFor(events);
    if (pending === undefined) return servedResultOf(events);
    const approval = await askApproval(tool, pending, rctx, approvalTimeout);
    if ("refused" in approval) return textResult(approval.refused, true);
    if ("inputRequired" in approval) return approval.inputRequired;
    const approved = await run([approve(pending)]);
    if (heldFor(approved) !== undefined) return textResult(`The call to ${tool.name} still needs approval; it was not run`, true);
    return servedResultOf(approved);
  });
}

/** The pending approval of a call the runner held, if it did. */
function heldFor(events: readonly ToolEvent[]): PendingApproval | undefined {
  const halt = events.find((e) => e.type === "tool_halt");
  return halt?.type === "tool_halt" && halt.reason === "approval_required" ? (halt.result as PendingApproval) : undefined;
}

function listOf(tools: readonly Tool[] | ToolResolver): () => readonly Tool[] {
  if (isToolResolver(tools)) return () => tools.availableTools();
  if (!Array.isArray(tools)) throw new TypeError(`Expected \`tools\` to be an array of tools or a ToolResolver, got ${describe(tools)}`);
  const copy = [...tools];
  return () => copy;
}

/** The `_meta` key of a tool's view that hosts before `_meta.ui` read (ext-apps' `RESOURCE_URI_META_KEY`). */
const APP_URI_KEY = "ui/resourceUri";

/** A tool as `tools/list` shows it; MCP requires an object schema, so a bare one gets `type`. */
function describeTool(tool: Tool): Record<string, unknown> {
  const inputSchema = toolJsonSchema(tool);
  const described: Record<string, unknown> = {
    name: tool.name,
    description: tool.description,
    inputSchema: inputSchema.type === undefined ? { type: "object", ...inputSchema } : inputSchema,
  };
  // An MCP Apps view, as ext-apps' registerAppTool lists it: `_meta.ui`, and the key older hosts read.
  const app = toolAppOf(tool);
  if (app !== undefined) described._meta = { ui: { ...app }, [APP_URI_KEY]: app.resourceUri };
  // A tool that came from another MCP server keeps its hints when served again.
  const mcp = tool.metadata.mcp;
  if (isPlainRecord(mcp) && isPlainRecord(mcp.annotations) && Object.keys(mcp.annotations).length > 0) {
    described.annotations = mcp.annotations;
  }
  return described;
}
