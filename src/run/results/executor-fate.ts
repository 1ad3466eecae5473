import type { HandlerContext } from "../../tool/handler-context.js";
import { describe } from "../../util/safe.js";

/**
 * What an executor knows became of a handler the runner stopped waiting for, which the runner
 * cannot see for itself: `killed`, the handler was stopped for good (its worker terminated, its
 * process killed) and will never settle; `cancel_sent`, the executor asked a remote side (an MCP
 * server, a job queue) to stop, and what the remote side does is unknown.
 */
export type ExecutorFate = "killed" | "cancel_sent";

const FATES: ReadonlySet<string> = new Set<ExecutorFate>(["killed", "cancel_sent"]);

/**
 * The method by which a runner's `ctx` takes an executor's word on an abandoned attempt. A
 * symbol, as for recipe steps: a context the runner did not make has none and reports nothing.
 */
export const REPORT_FATE: unique symbol = /* @__PURE__ */ Symbol("toolrx.reportFate");

/** A `ctx` that can take an executor's fate report: the runner's. */
export interface FateReporter {
  [REPORT_FATE](fate: ExecutorFate): void;
}

/**
 * Tell the runner what became of a call it abandoned (deadline passed, or cancelled by id), so
 * that `onCallReport` hears `late_settlement` with `settled: false` and this `fate` at once,
 * instead of "still running" after `settleGrace`. The first word on an attempt is the last: a
 * fate after its late settlement was reported, for a call the runner still waits for, or for a
 * `ctx` the runner did not make, is ignored.
 *
 * @example
 * // in a custom executor, once the worker running `ctx`'s call has been terminated:
 * reportFate(ctx, "killed"); // onCallReport: { type: "late_settlement", settled: false, fate: "killed", grace: 12, ... }
 * @throws {TypeError} when `fate` is not one of {@link ExecutorFate}.
 */
export function reportFate(ctx: HandlerContext, fate: ExecutorFate): void {
  if (!FATES.has(fate)) throw new TypeError(`Expected \`fate\` to be "killed" or "cancel_sent", got ${describe(fate)}`);
  const report = (ctx as Partial<FateReporter> | null | undefined)?.[REPORT_FATE];
  if (typeof report === "function") report.call(ctx, fate);
}
