import { type CallReport, LOG_LEVELS, type LogLevel } from "../../index.js";
import { describe } from "../../util/safe.js";
import { type McpRequestContext, type McpServerLike, setRequestHandler } from "../wire/index.js";

/**
 * The logging of one served MCP server: it declares the `logging` capability, answers
 * `logging/setLevel`, and sends a handler's `ctx.log` as `notifications/message` on the request
 * that runs the call, at or above the level the client set (every level until it sets one, as
 * the SDK's own `McpServer` does).
 */
export interface ServedLogging {
  /** Send `report`, a `log` report, to the client of `rctx`, if its level is wanted; never throws. */
  send(rctx: McpRequestContext, report: CallReport & { type: "log" }): void;
}

/** Declare logging on `server` and answer its `logging/setLevel`; the level is this server's, per session. */
export function serveLogging(server: McpServerLike): ServedLogging {
  let floor = 0;
  server.registerCapabilities?.({ logging: {} });
  setRequestHandler(server, "logging/setLevel", async (request) => {
    const level = request.params?.level;
    const rank = LOG_LEVELS.indexOf(level as LogLevel);
    if (rank < 0) {
      const known = LOG_LEVELS.map((l) => `"${l}"`).join(", ");
      throw Object.assign(new Error(`Expected \`level\` to be one of ${known}, got ${describe(level)}`), { code: -32602 });
    }
    floor = rank;
    return {};
  });
  return {
    send(rctx, report) {
      if (LOG_LEVELS.indexOf(report.level) < floor) return;
      const params: Record<string, unknown> = { level: report.level, data: report.data };
      if (report.logger !== undefined) params.logger = report.logger;
      // A notification that cannot be sent (the client went away) must not fail the call.
      rctx.notify({ method: "notifications/message", params }).catch(() => {});
    },
  };
}
