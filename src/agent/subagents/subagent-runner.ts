import type { Observable } from "rxjs";
import type { HandlerContext } from "../../tool/handler-context.js";
import type { AgentEvent } from "../events/index.js";
import type { AgentOptions } from "../options/index.js";

/** A `streamAgent` to run a call's subagent with: the traced one, under telemetry. */
export type SubagentRunner = (options: AgentOptions) => Observable<AgentEvent>;

/** By the call's `ctx`, which lives as long as the attempt: nothing to clean up. */
const runners = /* @__PURE__ */ new WeakMap<HandlerContext, SubagentRunner>();

/**
 * Not public API (`src/internal.ts`): run the subagent of the call `ctx` belongs to (an
 * `agentTool`'s) with `runner` instead of the core loop. Telemetry sets it as the call starts,
 * inside the call's span, so the subagent's run, turns, model calls and tool calls are traced
 * under it, as its parent's are.
 */
export function runSubagentWith(ctx: HandlerContext, runner: SubagentRunner): void {
  runners.set(ctx, runner);
}

/** The runner set for `ctx`'s call, if any. */
export function subagentRunnerOf(ctx: HandlerContext): SubagentRunner | undefined {
  return runners.get(ctx);
}
