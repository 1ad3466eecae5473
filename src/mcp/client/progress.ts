import type { McpProgress } from "../wire/index.js";
import type { HandlerContext } from "../../index.js";

/**
 * Hand an MCP progress notification to the call's progress channel (`ctx.progress`): it reaches
 * `RunOptions.onCallReport` and restarts the `toolIdleTimeout` deadline. A notification without
 * a numeric `progress` (a misbehaving server) is dropped rather than thrown into the SDK.
 */
export function reportProgress(ctx: HandlerContext, notification: McpProgress): void {
  const { progress, total, message } = notification;
  if (typeof progress !== "number") return;
  const update: { progress: number; total?: number; message?: string } = { progress };
  if (typeof total === "number") update.total = total;
  if (typeof message === "string") update.message = message;
  ctx.progress(update);
}
