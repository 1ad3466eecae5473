/** Why an MCP server's tools could not become toolrx tools. */
export type McpToolsErrorReason = "list_failed" | "list_timeout" | "malformed_list" | "cursor_loop" | "invalid_schema" | "duplicate_name";

/** Fields of an {@link McpToolsError}. */
export interface McpToolsErrorOptions {
  /** The server's key (its prefix), or `""` for a single unnamed server. */
  server: string;
  /** The tool's name on the server, when one tool is at fault. */
  toolName?: string;
  cause?: unknown;
}

/**
 * A server's tool list could not be read or used: the server is down or hangs, its answer is
 * not a tool list, its cursor does not advance, a tool's schema is not JSON Schema, or two tools
 * end up with the same name. Raised by `mcpTools` before any tool runs, so a broken server fails
 * where it is connected rather than on a model's first call.
 *
 * @example
 * await mcpTools({ github: client }).catch((e) => e.message);
 * // 'MCP server "github": tools/list did not answer within 10000 ms'
 */
export class McpToolsError extends Error {
  override readonly name = "McpToolsError";
  readonly reason: McpToolsErrorReason;
  readonly server: string;
  declare readonly toolName?: string;
  declare readonly cause?: unknown;

  constructor(reason: McpToolsErrorReason, message: string, options: McpToolsErrorOptions) {
    super(`${options.server === "" ? "MCP server" : `MCP server "${options.server}"`}: ${message}`);
    this.reason = reason;
    this.server = options.server;
    if (options.toolName !== undefined) this.toolName = options.toolName;
    if ("cause" in options) this.cause = options.cause;
  }
}
