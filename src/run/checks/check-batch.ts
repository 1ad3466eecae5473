import { ApprovalMismatchError } from "../../tool/approval/approval-mismatch-error.js";
import { unknownTool } from "../../tool/unknown-tool.js";
import type { RunEnv, ToolSource } from "../options/index.js";
import type { CheckedCall } from "./checked-call.js";

/**
 * The checks a non-empty batch passes at subscribe time, before the pool schedules any of it:
 * with `onUnknownTool: "fail"`, every call names a tool; every approval given answers a call of
 * the batch; the tools index (a resolver lists its tools only now, so a cold stream never
 * subscribed never asks it). In this order, so the first that fails is the stream's error; but
 * looking a name up indexes a resolver's tools, so with `"fail"` a list the index refuses is
 * refused first.
 *
 * @throws {EngineError} for a call whose tool does not exist, naming the tools that do.
 * @throws {ApprovalMismatchError} (`not_pending`) for an approval no call of the batch waits for.
 * @throws {TypeError} for tools that {@link ToolSource.check} refuses.
 */
export function checkBatch(calls: readonly CheckedCall[], source: ToolSource, env: RunEnv): void {
  if (env.onUnknownTool === "fail") {
    // Indexed, not `for…of`: once per batch, this loop often runs before it is optimized, where an array iterator costs a builtin call per call.
    for (let i = 0; i < calls.length; i++) {
      const { name } = calls[i] as CheckedCall;
      if (source.lookup(name) === undefined) throw unknownTool(name, source.names());
    }
  }
  if (env.gateApprovals && env.approvals !== undefined) {
    for (const id of env.approvals.keys()) {
      if (!calls.some((call) => call.id === id)) throw new ApprovalMismatchError("not_pending", id);
    }
  }
  source.check();
}
