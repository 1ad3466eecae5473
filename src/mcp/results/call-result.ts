import { askUser, error, type HandlerResult, ok, ToolError } from "../../index.js";
import { type CompiledSchema, sizeOf } from "../../internal.js";
import { isPlainRecord } from "../../util/safe.js";
import { callToolResultProblems } from "./call-tool-result.js";
import { partsOfBlocks } from "./content-parts.js";

/** What the mapping of one result needs to know. */
export interface ResultContext {
  /** The model-facing tool name, for errors. */
  toolName: string;
  toolCallId: string;
  /** The server's key, for errors and `ask_user` data. */
  server: string;
  /** The tool's name on the server. */
  mcpName: string;
  /** The call's arguments, kept so an `input_required` answer can retry the same call. */
  arguments: Record<string, unknown>;
  outputSchema: CompiledSchema | undefined;
  maxResultChars: number;
}

/**
 * A `tools/call` result as a toolrx handler result:
 *
 * - `isError: true` → `error(text)`, so it goes through `onToolError` like any failure;
 * - otherwise → `ok(text)`, with the blocks' images, files and resource links as its content
 *   parts (see content-parts.ts); with an `outputSchema`, `structuredContent` must be present and match
 *   it, else a `handler_raised` error (the server broke its own promise);
 * - `resultType: "input_required"` → `ask_user` with the server's questions, the retry data in
 *   `opts.mcp`;
 * - anything that is not a `CallToolResult` → `invalid_return`, its problems listed as the client
 *   SDK lists them for a plain call (a task's result reaches toolrx unchecked).
 *
 * `text` is {@link renderContent}, cut to `maxResultChars`.
 */
export function resultOf(result: unknown, rc: ResultContext): HandlerResult {
  if (!isPlainRecord(result)) return notAResult(result, rc);
  if (result.resultType === "input_required") return inputRequired(result, rc);
  const problems = callToolResultProblems(result);
  if (problems !== undefined) return notAResult(result, rc, problems);
  const { content, structuredContent } = result;
  const blocks = (content ?? []) as unknown[];
  if (result.isError === true) return error(cap(renderContent(blocks, structuredContent), rc.maxResultChars));
  if (rc.outputSchema !== undefined) {
    const problem = outputProblem(structuredContent, rc.outputSchema);
    if (problem !== undefined) {
      return error(
        new ToolError("handler_raised", {
          message: `MCP tool ${rc.mcpName} answered against its own outputSchema: ${problem}`,
          toolName: rc.toolName,
          toolCallId: rc.toolCallId,
          cause: structuredContent,
        }),
      );
    }
  }
  const text = cap(renderContent(blocks, structuredContent), rc.maxResultChars);
  const parts = partsOfBlocks(blocks);
  return parts === undefined ? ok(text) : ok(text, { parts });
}

/**
 * Content blocks as the text of a tool message, one block per line group:
 *
 * | block | text |
 * |---|---|
 * | `text` | the text itself |
 * | `image`, `audio` | `[image: image/png, 2.1 kB]` (an image is also one of the result's parts) |
 * | `resource_link` | `[resource link: <name> <uri>]` and its description, if any |
 * | `resource` with text | `[resource: <uri>]` then the text |
 * | `resource` with a blob | `[resource: <uri>, <mimeType>, <size>]` |
 *
 * With no content blocks, `structuredContent` as JSON (servers should send both; some only
 * send the structured half). Blocks are joined with a blank line.
 */
export function renderContent(blocks: readonly unknown[], structuredContent?: unknown): string {
  if (blocks.length === 0 && structuredContent !== undefined) return JSON.stringify(structuredContent) ?? "";
  return blocks.map(renderBlock).join("\n\n");
}

function renderBlock(block: unknown): string {
  if (!isPlainRecord(block)) return `[unreadable content block]`;
  switch (block.type) {
    case "text":
      return typeof block.text === "string" ? block.text : "";
    case "image":
    case "audio":
      return `[${block.type}: ${String(block.mimeType ?? "unknown type")}, ${sizeOfData(block.data)}]`;
    case "resource_link": {
      const head = `[resource link: ${String(block.name ?? "")} ${String(block.uri ?? "")}]`;
      return typeof block.description === "string" && block.description !== "" ? `${head}\n${block.description}` : head;
    }
    case "resource": {
      const resource = isPlainRecord(block.resource) ? block.resource : {};
      const uri = String(resource.uri ?? "");
      if (typeof resource.text === "string") return `[resource: ${uri}]\n${resource.text}`;
      return `[resource: ${uri}, ${String(resource.mimeType ?? "unknown type")}, ${sizeOfData(resource.blob)}]`;
    }
    default:
      return `[${String(block.type)} content]`;
  }
}

/** The decoded size of base64 data, for a placeholder: counted as toolrx's own part markers count it. */
function sizeOfData(data: unknown): string {
  return typeof data === "string" ? sizeOf(data) : "no data";
}

/** `text` cut to `max` characters, saying how much was left out. */
export function cap(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n[truncated: ${max} of ${text.length} characters shown]`;
}

function outputProblem(structured: unknown, schema: CompiledSchema): string | undefined {
  if (!isPlainRecord(structured)) {
    return structured === undefined ? "no structuredContent" : "structuredContent is not an object";
  }
  const validation = schema.validate(structured);
  if ("then" in validation) return undefined; // JSON Schema validation is synchronous; nothing async to wait for
  if (validation.ok) return undefined;
  return validation.issues.map((i) => (i.path.length === 0 ? i.message : `${i.path.join(".")}: ${i.message}`)).join("; ");
}

function notAResult(result: unknown, rc: ResultContext, why?: string): HandlerResult {
  return error(
    new ToolError("invalid_return", {
      message: `MCP server answered tool ${rc.mcpName} with something that is not a CallToolResult${why === undefined ? "" : `: ${why}`}`,
      toolName: rc.toolName,
      toolCallId: rc.toolCallId,
      cause: result,
    }),
  );
}

/**
 * An SDK's refusal of a server's answer as `invalid_return`, or `undefined` for any other error.
 * The client SDK refuses an answer that is not a `CallToolResult` (2.x with its `INVALID_RESULT`
 * code, 1.x with the validator's own error, which carries `issues`); an SDK server refuses its own
 * handler's answer and says so with `-32602` "Invalid tools/call result" (1.x: "Invalid task creation
 * result", for a task request answered with anything but a task). Either way the tool
 * returned something unusable: retrying it would get the same, and the model gets a short list
 * of what was wrong rather than the validator's dump.
 */
export function rejectedResult(cause: unknown, rc: ResultContext): HandlerResult | undefined {
  if (!isPlainRecord(cause) && !(cause instanceof Error)) return undefined;
  const { code, issues, message } = cause as { code?: unknown; issues?: unknown; message?: unknown };
  const text = typeof message === "string" ? message : "";
  const refused =
    code === "INVALID_RESULT" ||
    (Array.isArray(issues) && typeof code !== "number") ||
    (code === -32602 && (text.includes("Invalid tools/call result") || text.includes("Invalid task creation result")));
  if (!refused) return undefined;
  return notAResult(cause, rc, issueText(Array.isArray(issues) ? issues : issuesIn(text)) ?? text);
}

/** The JSON list of issues an SDK puts after its message's first `[`, if there is one. */
function issuesIn(text: string): unknown[] {
  const start = text.indexOf("[");
  if (start < 0) return [];
  try {
    const parsed: unknown = JSON.parse(text.slice(start));
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

/** Issues as `path: message; ...`, or `undefined` when none can be read. */
function issueText(issues: readonly unknown[]): string | undefined {
  const lines = issues.flatMap((issue) => {
    if (!isPlainRecord(issue) || typeof issue.message !== "string") return [];
    const path = Array.isArray(issue.path) ? issue.path.map(String).join(".") : "";
    return [path === "" ? issue.message : `${path}: ${issue.message}`];
  });
  return lines.length === 0 ? undefined : lines.join("; ");
}

/** The data an `ask_user` from an MCP server carries in `opts.mcp`, enough to retry the call. */
export interface McpInputRequest {
  server: string;
  /** The tool's name on the server. */
  tool: string;
  /** The tool's name as the model sees it, to call it again. */
  toolName: string;
  arguments: Record<string, unknown>;
  inputRequests: Record<string, unknown>;
  requestState?: string;
  /**
   * Set when the server asked with `elicitation/create` during the call (revisions before
   * 2026-07-28): the call is held in this process, waiting for the answer keyed `elicitation`.
   */
  held?: string;
  /** The task the call follows, when it is a task: to re-attach to it from another process. */
  taskId?: string;
}

/** An `input_required` answer (or a task's input requests, with its `taskId`) as `ask_user`. */
export function inputRequired(result: Record<string, unknown>, rc: ResultContext, taskId?: string): HandlerResult {
  const inputRequests = isPlainRecord(result.inputRequests) ? result.inputRequests : {};
  const questions = Object.values(inputRequests)
    .map(questionOf)
    .filter((q) => q !== "");
  const mcp: McpInputRequest = { server: rc.server, tool: rc.mcpName, toolName: rc.toolName, arguments: rc.arguments, inputRequests };
  if (typeof result.requestState === "string") mcp.requestState = result.requestState;
  if (taskId !== undefined) mcp.taskId = taskId;
  return askUser(questions.length > 0 ? questions.join("\n") : `MCP tool ${rc.mcpName} needs more input`, { mcp });
}

function questionOf(request: unknown): string {
  if (!isPlainRecord(request) || !isPlainRecord(request.params)) return "";
  const { message } = request.params;
  return typeof message === "string" ? message : "";
}
