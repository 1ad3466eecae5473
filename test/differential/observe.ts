import { readFileSync } from "node:fs";
import { join } from "node:path";
import { lastValueFrom, tap } from "rxjs";
import {
  isToolError,
  RunResultCollector,
  streamToolCalls,
  type CallReport,
  type HandlerResult,
  type Tool,
  type ToolEvent,
  type ToolExecutor,
} from "../../src/index.js";
import type { Batch } from "./arbitraries.js";

/**
 * What differs by executor, by design, and is therefore left out of the comparison (docs/running.md,
 * "What differs by executor"):
 * - timings: the interleaving of different calls' events, and when a `late_settlement` report comes
 *   (it may come after the batch; its `lateBy`). What it says is compared: whether the handler
 *   settled, and its result (an error's reason code: the abort reason it may carry is each
 *   executor's own cancel);
 * - stacks: an error that crossed a thread or a process keeps its first line only;
 * - data crosses as JSON: the `completed` event's `ok` value, `halt` result and `ask_user` opts,
 *   a progress report's `data` and an error's own data are compared as their JSON form (a `Date` arrives as its string, `NaN` as `null`,
 *   `undefined` properties and functions nested in objects left out), and an error's parts that
 *   cannot cross as their short description (`"[Circular]"`);
 * - a value JSON cannot hold (a bigint, a cycle): in-process the encoder
 *   refuses it (`encoding_failed`); across a boundary it cannot leave the handler's side
 *   (`invalid_return`, `metadata.crossing`). Both are compared as "unencodable", the message too.
 */
export const DIFFERS_BY_EXECUTOR = ["call interleaving", "when late_settlement reports come", "stacks", "JSON form of data", "unencodable values"] as const;

/** Everything a batch told its host, per call, in a form two executors can be compared on. */
export interface Observation {
  readonly calls: readonly {
    readonly events: unknown[];
    readonly reports: unknown[];
    /** What the `late_settlement` report of a call that timed out said, when it came within 10 s. */
    readonly late: unknown;
    readonly message: unknown;
    /** Handler and hook runs, from the session's log. */
    readonly runs: Record<string, number>;
  }[];
  readonly halt: unknown;
}

/** Run `batch` with `executor` (`undefined`: the default) and observe it. */
export async function observe(batch: Batch, tools: Tool[], executor: ToolExecutor | undefined, sessionId: string, logDir: string): Promise<Observation> {
  const events: ToolEvent[] = [];
  const reports: CallReport[] = [];
  const collector = new RunResultCollector();
  // A timeout the `recover` policy turned into an answer leaves no error in the events: note it here.
  const recoveredTimeouts = new Set<string>();
  const recover = (call: { id: string }, error: unknown) => {
    if (isToolError(error) && error.reason === "timeout") recoveredTimeouts.add(call.id);
    return { continue: { recovered: true } };
  };
  await lastValueFrom(
    streamToolCalls(batch.calls, tools, {
      ...(executor === undefined ? {} : { toolExecutor: executor }),
      onToolError: batch.onToolError === "recover" ? recover : batch.onToolError,
      ...(batch.outputBudget === undefined ? {} : { outputBudget: batch.outputBudget }),
      ...(batch.repair === undefined ? {} : { repairToolCall: () => ({ steps: batch.repair }) }),
      sessionId,
      toolTimeout: 20_000,
      onCallReport: (r) => reports.push(r),
    }).pipe(
      tap((e) => {
        events.push(e);
        collector.add(e);
      }),
    ),
    { defaultValue: undefined },
  );
  const result = collector.result();
  // A handler past its deadline settles later: wait for its report (its after-hooks run before it).
  const timedOut = events
    .filter(
      (e) =>
        e.type === "tool_execution_completed" &&
        isToolError(e.result.type === "error" ? e.result.reason : undefined) &&
        (e.result as { reason: { reason: string } }).reason.reason === "timeout",
    )
    .map((e) => e.index)
    .concat(batch.calls.flatMap((call, index) => (recoveredTimeouts.has(call.id) ? [index] : [])));
  await lateReports(reports, timedOut);
  const runs = runsOf(join(logDir, `${sessionId}.log`));
  const unencodable = new Set(events.filter((e) => e.type === "tool_execution_completed" && isUnencodable(e.result)).map((e) => e.index));
  return {
    calls: batch.calls.map((call, index) => ({
      events: events.filter((e) => e.index === index).map((e) => canonEvent(e, unencodable.has(index))),
      reports: reports
        .filter((r) => r.index === index && r.type !== "late_settlement")
        .map((r) => (r.type === "progress" ? canon({ ...r, data: jsonForm(r.data) }) : canon(r))),
      late: canonLate(reports.find((r) => r.index === index && r.type === "late_settlement")),
      message: unencodable.has(index) ? { ...result.messages[index], content: "<unencodable>" } : result.messages[index],
      runs: runs[call.id] ?? {},
    })),
    halt: canonHalt(result.halt),
  };
}

/** Wait (up to 10 s) until each call in `indexes` has its `late_settlement` report. */
async function lateReports(reports: readonly CallReport[], indexes: readonly number[]): Promise<void> {
  const due = Date.now() + 10_000;
  const missing = (): boolean => indexes.some((i) => !reports.some((r) => r.index === i && r.type === "late_settlement"));
  while (missing() && Date.now() < due) await new Promise((resolve) => setTimeout(resolve, 20));
}

function canonLate(report: CallReport | undefined): unknown {
  if (report?.type !== "late_settlement") return undefined;
  if (!report.settled) return { abandoned: report.abandoned, settled: false, fate: report.fate };
  const r = report.result as HandlerResult;
  // A late result is reported as the handler gave it: in-process an ok value JSON cannot hold
  // stays as it is, while a thread or a process could not send it (invalid_return). Both unencodable.
  if (isUnencodable(r) || holdsUnencodable(r)) return { abandoned: report.abandoned, settled: true, result: { unencodable: true } };
  const result = r.type === "error" ? { type: "error", reason: isToolError(r.reason) ? r.reason.reason : canon(r.reason) } : canonResult(r);
  return { abandoned: report.abandoned, settled: true, result };
}

/** An `ok` whose value JSON cannot hold: `JSON.stringify` throws on it (a bigint, a cycle), or it nests past 512 levels (the limit both sides refuse). */
function holdsUnencodable(r: HandlerResult): boolean {
  if (r.type !== "ok") return false;
  try {
    JSON.stringify(r.value);
  } catch {
    return true;
  }
  return deeperThan(r.value, 512);
}

function deeperThan(value: unknown, levels: number): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (levels === 0) return true;
  return Object.values(value).some((v) => deeperThan(v, levels - 1));
}

function runsOf(file: string): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  let text = "";
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return out;
  }
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const { id, kind } = JSON.parse(line) as { id: string; kind: string };
    out[id] ??= {};
    const counts = out[id];
    counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return out;
}

function isUnencodable(result: HandlerResult): boolean {
  if (result.type !== "error" || !isToolError(result.reason)) return false;
  const e = result.reason;
  return e.reason === "encoding_failed" || (e.reason === "invalid_return" && "crossing" in e.metadata);
}

function canonEvent(e: ToolEvent, unencodable: boolean): unknown {
  switch (e.type) {
    case "tool_execution_completed":
      return { ...e, result: canonResult(e.result) };
    case "tool_result_encoded":
      return unencodable ? { ...e, content: "<unencodable>" } : e;
    case "tool_halt":
      return { ...e, result: e.reason === "tool_error" ? canonError(e.result) : jsonForm(e.result), content: unencodable ? "<unencodable>" : e.content };
    default:
      return canon(e);
  }
}

function canonResult(r: HandlerResult): unknown {
  switch (r.type) {
    case "ok":
      return { ...r, value: jsonForm(r.value) };
    case "error":
      return { type: "error", reason: canonError(r.reason) };
    case "ask_user":
      return { ...r, opts: jsonForm(r.opts ?? {}) };
    case "halt":
      return { ...r, result: jsonForm(r.result) };
  }
}

function canonError(reason: unknown): unknown {
  if (isUnencodable({ type: "error", reason })) return { unencodable: true };
  return canon(reason);
}

function canonHalt(halt: unknown): unknown {
  if (halt === undefined) return undefined;
  const h = halt as Record<string, unknown>;
  return {
    ...h,
    ...("haltResult" in h && { haltResult: jsonForm(h.haltResult) }),
    ...("onToolErrorException" in h && { onToolErrorException: canon(h.onToolErrorException) }),
  };
}

/** A value as the JSON encoder would write it, or its canonical form when it cannot be. */
function jsonForm(value: unknown): unknown {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? canon(value) : JSON.parse(text);
  } catch {
    return canon(value);
  }
}

/** Errors as their name, message, data and cause chain (no stack), cycles as "[Circular]", bigints and functions tagged. */
export function canon(value: unknown, seen: Set<object> = new Set()): unknown {
  if (typeof value === "bigint") return { bigint: String(value) };
  if (typeof value === "function") return "[function]";
  if (typeof value !== "object" || value === null) return value;
  if (seen.has(value)) return "[Circular]";
  seen.add(value);
  try {
    if (value instanceof Error) {
      // The class too: a renamed RangeError must come back a RangeError.
      const out: Record<string, unknown> = { $error: value.name, $class: Object.getPrototypeOf(value)?.constructor?.name, message: value.message };
      // An error's own data crosses in JSON's form (docs/running.md): a Map as {}, NaN as null.
      // Its name is `$error`, whether it was set as an own, enumerable property or not.
      for (const key of Object.keys(value))
        if (key !== "stack" && key !== "name") out[key] = canon(jsonLeaf((value as unknown as Record<string, unknown>)[key]), seen);
      if ("cause" in value) out.cause = canon(value.cause, seen);
      return out;
    }
    if (Array.isArray(value)) return value.map((v) => canon(v, seen));
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, canon(v, seen)]));
  } finally {
    seen.delete(value);
  }
}

/** A Map or Set as JSON writes it ({}), a number JSON cannot hold as null; anything else as it is. */
function jsonLeaf(value: unknown): unknown {
  if (typeof value === "number" && !Number.isFinite(value)) return null;
  if (value instanceof Map || value instanceof Set) return {};
  return value;
}
