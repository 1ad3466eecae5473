import type { HaltMetadata } from "../../run/results/run-result.js";
import { deliver, type CallReport } from "../../run/results/call-report.js";
import type { RunOptions } from "../../run/options/run-options.js";
import type { PendingQuestion } from "../../tool/approval/needs-approval.js";
import type { ToolResultEncoder } from "../../tool/encoder.js";
import { jsonEncoder } from "../../tool/encoder.js";
import type { ToolMessage } from "../../tool/message.js";
import type { Tool } from "../../tool/tool.js";
import type { ToolCall } from "../../tool/tool-call.js";
import { controlOf } from "../../tool/tool-control.js";
import { ToolError } from "../../tool/tool-error.js";
import type { JournalPhase } from "./journal.js";
import type { ReplyState } from "../model/index.js";
import type { JournalReattach } from "./journal-reattach.js";
import type { RunJournal } from "./run-journal.js";

/** What a batch needs to record its calls and answer them from the record. */
export interface BatchJournal {
  readonly journal: RunJournal;
  readonly phase: JournalPhase;
  readonly turn: number;
  /** The model's text so far, kept with each call that starts while it streams. */
  text(): string;
  /** The rest of the reply so far (reasoning, text state, provider items), kept with it; undefined when there is none. */
  state?(): ReplyState | undefined;
}

/**
 * Whether a call that started before the process stopped, and has no recorded outcome, may be
 * sent again: when the tool is `control.idempotent`, or the executor re-attaches to the work it
 * sent (an executor with `reattaches: true`, such as `bullmqExecutor`, whose job ids derive from
 * the call id; a router of executors may answer per tool with `reattaches: (tool) => boolean`).
 * The executor asked is the one the call ran on: `toolExecutors[control.executor]` for a tool
 * that names one, else `toolExecutor`. Any other call's fate is unknown and it is not run again.
 */
export function resendsInFlight(tool: Tool | undefined, runOptions: RunOptions): boolean {
  const control = tool === undefined ? undefined : controlOf(tool);
  if (control?.idempotent === true) return true;
  // Asked of the executor the call went to: a tool's own `control.executor` routes it past `toolExecutor`.
  const executor =
    control?.executor === undefined ? (runOptions.toolExecutor ?? runOptions.engine?.toolExecutor) : runOptions.toolExecutors?.[control.executor];
  const reattaches = (executor as { reattaches?: unknown } | undefined)?.reattaches;
  // A router of executors answers per tool.
  return reattaches === true || (typeof reattaches === "function" && tool !== undefined && reattaches(tool) === true);
}

/**
 * The answer to a call whose handler was running in a process that stopped: `handler_exit`, with
 * `metadata.fate: "unknown"`, since it may have run to its end, or half, or not at all.
 */
export function unknownFateMessage(call: ToolCall, encoder: ToolResultEncoder): ToolMessage {
  const error = new ToolError("handler_exit", {
    message: `tool error (${call.name}): handler_exit: the process running this call stopped before it settled; whether its effect happened is unknown, and it was not run again`,
    toolName: call.name,
    toolCallId: call.id,
    metadata: { fate: "unknown" },
  });
  let content: unknown;
  try {
    content = encoder.encodeError(error);
  } catch {
    // An encoder that throws leaves `content` undefined: the JSON encoding below stands in.
  }
  return { role: "tool", toolCallId: call.id, name: call.name, content: typeof content === "string" ? content : jsonEncoder.encodeError(error), isError: true };
}

/** A call's answer read from the journal, for the batch to put in its place. */
export interface JournalAnswer {
  readonly message: ToolMessage;
  readonly halt?: HaltMetadata | undefined;
  readonly question?: PendingQuestion | undefined;
}

/**
 * A call the journal knows: answered from its recorded outcome, or, when it was running as the
 * process stopped, re-attached to the work it named (`reattach`: the call to send instead, asking
 * no one, since it was started and approved before), sent again if that is safe (`undefined`: run
 * it), else answered with its fate unknown (that answer recorded as its outcome). `undefined` too
 * for a call the journal does not know. Throws what `journal.reattach.callOf` throws.
 */
export function journalAnswer(
  call: ToolCall,
  tool: Tool | undefined,
  j: BatchJournal,
  runOptions: RunOptions,
  encoder: ToolResultEncoder,
): JournalAnswer | { readonly reattach: ToolCall } | undefined {
  const recorded = j.journal.outcomeOf(j.phase, j.turn, call.id);
  if (recorded !== undefined) return recorded;
  if (!j.journal.wasStarted(j.phase, j.turn, call.id)) return undefined;
  const reattach = j.journal.reattach;
  // A handle on record is followed only by a journal told how (a restart may drop `reattach`).
  const handle = j.journal.handleOf(j.phase, j.turn, call.id);
  if (reattach !== undefined && handle !== undefined) return { reattach: reattach.callOf(call, handle) };
  if (resendsInFlight(tool, runOptions)) return undefined;
  const message = unknownFateMessage(call, encoder);
  j.journal.recordOutcome(j.phase, j.turn, message);
  return { message };
}

/**
 * The `onCallReport` of a batch whose journal re-attaches (`journal.reattach`): each handle a
 * call names is recorded before the report goes on, so a restart finds it; then `own`, as it was.
 */
export function recordingHandles(own: ((report: CallReport) => void) | undefined, j: BatchJournal, reattach: JournalReattach): (report: CallReport) => void {
  return (report) => {
    deliver((r) => {
      const handle = reattach.handleOf(r);
      if (typeof handle === "string" && handle !== "") j.journal.recordHandle(j.phase, j.turn, r.toolCallId, handle);
    }, report);
    if (own !== undefined) own(report);
  };
}
