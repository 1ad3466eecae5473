import { context, SpanKind, SpanStatusCode, type Attributes, type Span } from "@opentelemetry/api";
import type { CallRecord } from "./call-record.js";
import { contentText, errorTypeOf } from "./error-type.js";
import type { Instruments } from "./instruments.js";
import type { TelemetryConfig } from "./telemetry-options.js";
import type { CallReport, RecipeStepReport } from "../index.js";

/** Progress events kept per span: enough to see a call's pace, not so many that a chatty tool floods it. */
const MAX_PROGRESS_EVENTS = 16;

/**
 * Turn a call's side-channel report into what its span shows: progress and retried attempts as
 * events, a recipe's sub-steps as child `execute_tool` spans. A late settlement comes after the
 * span has ended, so it is counted in a metric instead.
 */
export function recordReport(record: CallRecord | undefined, report: CallReport, config: TelemetryConfig, instruments: Instruments, watched: boolean): void {
  if (report.type === "late_settlement") {
    // Reported for every abandoned handler only when the user watches for them (onCallReport).
    if (watched) {
      instruments.lateSettlements.add(1, {
        "gen_ai.tool.name": report.toolName,
        "toolrx.late.settled": report.settled,
        "toolrx.late.abandoned": report.abandoned,
      });
    }
    return;
  }
  if (record === undefined) return;
  const { span } = record;
  switch (report.type) {
    case "progress": {
      record.progressReports++;
      if (!span.isRecording() || record.progressReports > MAX_PROGRESS_EVENTS) return;
      const attributes: Attributes = { "toolrx.progress": report.progress, "toolrx.attempt": report.attempt };
      if (report.total !== undefined) attributes["toolrx.progress.total"] = report.total;
      if (report.message !== undefined && config.maxContent > 0) attributes["toolrx.progress.message"] = contentText(report.message, config.maxContent);
      span.addEvent("toolrx.progress", attributes);
      return;
    }
    case "attempt_failed":
      record.attempts = report.attempt + 1;
      if (span.isRecording()) {
        span.addEvent("toolrx.retry", { "toolrx.attempt": report.attempt, "error.type": errorTypeOf(report.error), "toolrx.retry_in_ms": report.retryIn });
      }
      return;
    case "repaired":
      // The span's arguments are the model's; the handler ran on the repaired ones.
      if (span.isRecording()) {
        span.setAttribute("toolrx.tool.repaired", true);
        const attributes: Attributes = { "toolrx.repair.issues": report.issues.length };
        if (config.maxContent > 0) attributes["toolrx.repair.arguments"] = contentText(report.arguments, config.maxContent);
        span.addEvent("toolrx.repaired", attributes);
      }
      return;
    case "log":
      // A handler's log line: an event on the call's span, its data only when content is recorded.
      if (span.isRecording()) {
        const attributes: Attributes = { "toolrx.log.level": report.level };
        if (report.logger !== undefined) attributes["toolrx.log.logger"] = report.logger;
        if (config.maxContent > 0) attributes["toolrx.log.data"] = contentText(report.data, config.maxContent);
        span.addEvent("toolrx.log", attributes);
      }
      return;
    case "nested_event":
      // A subagent's events: its own traced run tells them in spans under this call's (see CallRegistry).
      return;
    default:
      recordStep(record, report, config);
  }
}

/** A recipe sub-step as a child span of its call: started, then succeeded or failed. */
function recordStep(record: CallRecord, report: RecipeStepReport, config: TelemetryConfig): void {
  record.steps ??= new Map<string, Span>();
  const steps = record.steps;
  let step = steps.get(report.stepCallId);
  if (step === undefined) {
    const parent = record.context ?? context.active();
    const attributes: Attributes = {
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": report.tool,
      "gen_ai.tool.call.id": report.stepCallId,
      "toolrx.recipe.phase": report.phase,
      "toolrx.recipe.step": report.step,
      "toolrx.recipe.label": report.label,
    };
    if (report.type === "recipe_step_started" && config.maxContent > 0)
      attributes["gen_ai.tool.call.arguments"] = contentText(report.arguments, config.maxContent);
    step = config.tracer.startSpan(`execute_tool ${report.tool}`, { kind: SpanKind.INTERNAL, attributes }, parent);
    steps.set(report.stepCallId, step);
  }
  if (report.type === "recipe_step_started") return;
  steps.delete(report.stepCallId);
  if (report.type === "recipe_step_succeeded") {
    if (config.maxContent > 0) step.setAttribute("gen_ai.tool.call.result", contentText(report.content, config.maxContent));
  } else {
    step.setAttribute("error.type", "_OTHER");
    step.setStatus({ code: SpanStatusCode.ERROR, message: config.maxContent > 0 ? contentText(report.error, config.maxContent) : undefined });
  }
  step.end();
}

/** Sub-steps still open when their call ends (its deadline passed): they end with it, cancelled. */
export function endSteps(record: CallRecord): void {
  if (record.steps === undefined) return;
  for (const step of record.steps.values()) {
    step.setAttribute("error.type", "cancelled");
    step.setStatus({ code: SpanStatusCode.ERROR });
    step.end();
  }
  record.steps = undefined;
}
