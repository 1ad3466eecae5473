import type { CallReport } from "../../index.js";
import type { ServedLogging } from "./serve-logging.js";
import type { McpRequestContext } from "../wire/index.js";

/**
 * The side channel of one request: a handler's `ctx.progress` goes out as a progress
 * notification when the client asked for progress, its `ctx.log` as `notifications/message` on
 * the same request, and every report still reaches the `onCallReport` given to `serveTools`.
 */
export function channelOf(
  rctx: McpRequestContext,
  progressToken: string | number | undefined,
  logging: ServedLogging,
  own: ((report: CallReport) => void) | undefined,
): (report: CallReport) => void {
  return (report) => {
    if (report.type === "log") logging.send(rctx, report);
    else if (report.type === "progress" && progressToken !== undefined) {
      const params: Record<string, unknown> = { progressToken, progress: report.progress };
      if (report.total !== undefined) params.total = report.total;
      if (report.message !== undefined) params.message = report.message;
      // A notification that cannot be sent (the client went away) must not fail the call.
      rctx.notify({ method: "notifications/progress", params }).catch(() => {});
    }
    own?.(report);
  };
}

/** A task's side channel: each progress report becomes its status message. */
export function statusTo(status: (message: string) => void, own: ((report: CallReport) => void) | undefined): (report: CallReport) => void {
  return (report) => {
    if (report.type === "progress") {
      status(report.message ?? `${report.progress}${report.total === undefined ? "" : ` of ${report.total}`}`);
    }
    own?.(report);
  };
}
