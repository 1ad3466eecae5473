import type { HandlerContext } from "../executor.js";
import type { McpProgress } from "./client-like.js";

/**
 * Hand an MCP progress notification to the call's progress channel. The handler context grows
 * a progress API with call control; until then a context without one drops the report.
 */
export function reportProgress(ctx: HandlerContext, progress: McpProgress): void {
  const report = (ctx as { progress?: unknown }).progress;
  if (typeof report === "function") (report as (p: McpProgress) => void).call(ctx, progress);
}
