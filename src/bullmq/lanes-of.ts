import type { Tool } from "../index.js";
import type { LaneLimit } from "./lanes.js";

/**
 * The Redis lanes a call of `tool` needs a lease in: the tool's `control.concurrency` (its own
 * lane, or its group's) and the global cap, when set. The same checks as in-process have already
 * run where the tool was defined, so a malformed `control` is simply ignored here.
 */
export function lanesOf(tool: Tool, globalConcurrency: number | undefined): LaneLimit[] {
  const lanes: LaneLimit[] = [];
  const concurrency = tool.control?.concurrency;
  if (typeof concurrency === "number") lanes.push({ lane: `tool:${tool.name}`, limit: concurrency });
  else if (concurrency !== undefined) lanes.push({ lane: `group:${concurrency.group}`, limit: concurrency.limit });
  if (globalConcurrency !== undefined) lanes.push({ lane: "global", limit: globalConcurrency });
  return lanes;
}
