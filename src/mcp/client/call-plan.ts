import type { McpTraceContext, McpCallParams, McpClientLike, McpRequestOptions, McpRequester } from "../wire/index.js";
import type { ElicitationRouter } from "./elicitation-router.js";
import type { CompiledSchema } from "../../internal.js";

/** Which remote tool a handler calls, and how its answers are read. */
export interface McpCallTarget {
  readonly client: McpClientLike;
  /** The server's key, or `""` for a single unnamed server. */
  readonly server: string;
  /** The model-facing tool name. */
  readonly name: string;
  /** The tool's name on the server. */
  readonly mcpName: string;
  readonly outputSchema: CompiledSchema | undefined;
  readonly maxResultChars: number;
}

/** A target with how to call it: plainly or as a task, and what to do with a server's question. */
export interface McpCallPlan extends McpCallTarget {
  readonly callTool: (params: McpCallParams, options: McpRequestOptions) => Promise<unknown>;
  /** Any request; `undefined` for a client without `request()` (no tasks then). */
  readonly request: McpRequester | undefined;
  /** Call it as a task (revision 2025-11-25). */
  readonly asTask: boolean;
  readonly taskTtl: number | undefined;
  readonly maxPollInterval: number;
  /** Set with `McpToolsOptions.elicitation`: where the server's questions are routed. */
  readonly router: ElicitationRouter | undefined;
  /** How long a call held on a question waits for the host, in ms. */
  readonly holdFor: number;
  /** Set with `McpToolsOptions.telemetry`: the calling span's trace context goes in each call's `_meta`. */
  readonly trace: McpTraceContext | undefined;
}
