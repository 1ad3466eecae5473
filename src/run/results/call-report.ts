import type { RecipeStepBody } from "../../resolve/recipe-step.js";
import type { LogEntry, ProgressUpdate } from "../../tool/handler-context.js";
import type { ArgumentIssue } from "../../schema/invalid-arguments-error.js";
import { reportUnhandled } from "../../util/report-unhandled.js";

export type { RecipeStepFields } from "../../resolve/recipe-step.js";

import type { ExecutorFate } from "./executor-fate.js";

/** Which call a report belongs to: the same three fields every `ToolEvent` carries. */
export interface CallReportBase {
  /** The call's position in the input (arrival order for an Observable of calls). */
  readonly index: number;
  readonly toolCallId: string;
  readonly toolName: string;
}

/** A handler reported progress; `attempt` is 1 unless the call is being retried. */
export interface ProgressReport extends CallReportBase, ProgressUpdate {
  readonly type: "progress";
  readonly attempt: number;
}

/** A handler logged something (`ctx.log`); `attempt` is 1 unless the call is being retried. */
export interface LogReport extends CallReportBase, LogEntry {
  readonly type: "log";
  readonly attempt: number;
}

/** A recipe sub-step of a resolver's call started, succeeded or failed. */
export type RecipeStepReport = CallReportBase & RecipeStepBody;

/** An attempt failed and the call will be tried again after `retryIn` milliseconds. */
export interface AttemptFailedReport extends CallReportBase {
  readonly type: "attempt_failed";
  /** The attempt that failed, from 1. */
  readonly attempt: number;
  /** Its error term (a `ToolError` for the default retry rule). */
  readonly error: unknown;
  readonly retryIn: number;
}

/**
 * What became of a handler the runner stopped waiting for (a deadline passed, or the call was
 * cancelled by id). JavaScript cannot stop a function, so this says whether it finished after
 * all (`settled: true`, with its result and `lateBy` milliseconds after it was abandoned) or was
 * still running `settleGrace` milliseconds later (`settled: false`). It comes after the call's
 * `completed` event, by nature, possibly after the stream has completed.
 */
export type LateSettlementReport = CallReportBase & {
  readonly type: "late_settlement";
  readonly attempt: number;
  /** Why the runner stopped waiting. */
  readonly abandoned: "timeout" | "cancelled";
} & (
    | { readonly settled: true; readonly result: unknown; readonly lateBy: number }
    | {
        readonly settled: false;
        /** Milliseconds after it was abandoned: `settleGrace`, unless the executor said its `fate` sooner. */
        readonly grace: number;
        /** What the executor said became of it (see `reportFate`); absent: still running, as far as the runner knows. */
        readonly fate?: ExecutorFate;
      }
  );

/**
 * Everything that happens inside a call besides its `ToolEvent`s, on one side channel
 * (`RunOptions.onCallReport`). A call's reports come before its `tool_execution_completed`
 * event, never after, except `late_settlement`, which by nature comes later.
 */
export type CallReport = ProgressReport | LogReport | RecipeStepReport | AttemptFailedReport | LateSettlementReport | NestedEventReport | RepairedReport;

/**
 * The call's arguments failed validation and `repairToolCall` repaired them: the handler runs
 * with `arguments` (validated), not with what the model sent (the `started` event's).
 */
export interface RepairedReport extends CallReportBase {
  readonly type: "repaired";
  /** What was wrong with the model's arguments. */
  readonly issues: readonly ArgumentIssue[];
  /** The repaired arguments, as the schema output them. */
  readonly arguments: Record<string, unknown>;
}

/**
 * An event of a run nested inside the call (a subagent's `AgentEvent`, from `agentTool`). The
 * runner passes it on as it came; the agent loop turns it into a typed `subagent_event`.
 */
export interface NestedEventReport extends CallReportBase {
  readonly type: "nested_event";
  readonly event: unknown;
}

/**
 * Hand a report to the listener. A listener that throws must not break the call that reported,
 * nor vanish silently: its error goes to RxJS's `config.onUnhandledError`, as a throwing
 * observer's does (see {@link reportUnhandled}).
 */
export function deliver(listener: (report: CallReport) => void, report: CallReport): void {
  try {
    listener(report);
  } catch (e) {
    reportUnhandled(e);
  }
}
