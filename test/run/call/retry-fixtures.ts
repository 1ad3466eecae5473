import { defineTool, streamToolCalls, type CallReport, type HandlerReturn, type ToolControl, type ToolEvent } from "../../../src/index.js";
import type { RunOptions } from "../../../src/run/options/run-options";
import type { HandlerContext } from "../../../src/tool/handler-context.js";
import { anyArgs, call } from "../../support/helpers.js";
import type { ManualScheduler } from "../../support/manual-scheduler.js";

// The tool and run of the retry and late-settlement tests (retry-late-settlement.test.ts, abandoned-attempts.test.ts).

/** Tool "t" with `handler` (and `control`, when given). */
export function toolT(handler: (args: Record<string, unknown>, ctx: HandlerContext) => HandlerReturn, control?: ToolControl) {
  return defineTool({ name: "t", description: "", schema: anyArgs, handler, ...(control === undefined ? {} : { control }) });
}

/** Run one call "c" of tool "t" on a manual clock; `tails` are its tail events, `reports` its side channel. */
export function run(scheduler: ManualScheduler, tool: ReturnType<typeof toolT>, options: RunOptions = {}) {
  const tails: ToolEvent[] = [];
  const completed: ToolEvent[] = [];
  const reports: CallReport[] = [];
  let done = false;
  streamToolCalls([call("c", "t")], [tool], { scheduler, onCallReport: (r) => reports.push(r), ...options }).subscribe({
    next: (e) => {
      if (e.type === "tool_execution_completed") completed.push(e);
      else if (e.type !== "tool_execution_started") tails.push(e);
    },
    complete: () => (done = true),
  });
  return { tails, completed, reports, done: () => done };
}
