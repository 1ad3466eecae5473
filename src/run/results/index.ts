// What a run tells its caller, as the other concepts of src/run/ and its entry points use it (see README.md).
export { CallCancelledError } from "./call-cancelled-error.js";
export { deliver } from "./call-report.js";
export type { CallReport, CallReportBase, LateSettlementReport, NestedEventReport } from "./call-report.js";
export type { ToolEvent, ToolExecutionCompleted, ToolHaltEvent, ToolResultEncoded, ToolTailEvent } from "./events.js";
export { REPORT_FATE } from "./executor-fate.js";
export type { ExecutorFate, FateReporter } from "./executor-fate.js";
export { RunResultCollector } from "./run-result.js";
export type { RunResult } from "./run-result.js";
