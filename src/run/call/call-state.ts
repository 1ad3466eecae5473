import type { RetryPlan } from "../../tool/retry-policy.js";
import type { Tool } from "../../tool/tool.js";
import type { CallContext, ReportTarget } from "./call-context.js";
import type { CallSink } from "./call-sink.js";
import type { Timed } from "../deadlines/index.js";
import type { Abandoned } from "./late-settlement.js";
import type { RunEnv } from "../options/index.js";
import type { Answering } from "../outcome/index.js";

/**
 * The state of one call as the files of its state machine share it: `CallRun` (run-one.ts) holds
 * it and drives the lifecycle; call-start.ts validates and starts attempts, call-deadlines.ts
 * settles them against their deadlines and retries, call-answer.ts answers, call-abandon.ts
 * reports the attempts the runner stopped waiting for. Each of those is a set of functions taking
 * the call, so the per-call path allocates nothing more than one class would.
 */

/**
 * What only a call under a retry plan keeps, on a side object made only then: a plain call's
 * record is one object with none of these fields.
 */
export interface Retrying {
  readonly plan: RetryPlan;
  /** The retries' overall bound in ms (`totalTimeout`, or every attempt's deadline and every backoff's cap). */
  readonly total: number;
  /** When the first attempt started, on the deadlines' clock. */
  firstStart: number;
  /** The validated arguments, for the next attempt. */
  args: Record<string, unknown> | undefined;
  /** What `args` were parsed from (see `argumentsInputOf`). */
  input: Record<string, unknown> | undefined;
}

/** A call's two deadlines in ms; `RunEnv` is one. */
export interface Limits {
  readonly timeout: number;
  readonly idleTimeout: number;
}

/** Where a call is: not started yet. */
export const IDLE = 0;
/** Its arguments' asynchronous validation is under way. */
export const VALIDATING = 1;
/** An attempt's handler runs. */
export const RUNNING = 2;
/** Waiting out the backoff before its next attempt. */
export const BACKOFF = 3;
/** Answered, or given up on: nothing more happens to it. */
export const DONE = 4;

/**
 * Everything a call's state machine reads and writes. Internal: the fields are mutable only so
 * that the files named above can share them; nothing outside those files touches them.
 */
export interface CallState extends Timed, ReportTarget, Answering {
  readonly tool: Tool | undefined;
  readonly env: RunEnv;
  readonly sink: CallSink<CallState>;
  /** Its retry plan and what retrying needs; `undefined` for a call that is not retried. */
  readonly retry: Retrying | undefined;
  /** The call's deadlines: the run's (`env` itself), or the tool's own over them. */
  readonly limits: Limits;
  /** Whether any deadline applies: only then is the clock read. */
  readonly clocked: boolean;
  phase: number;
  /** The current attempt's context, `undefined` before the first. */
  ctx: CallContext | undefined;
  /** Whether `sink.track` was called: the call went asynchronous. */
  tracked: boolean;
  attemptStart: number;
  lastActive: number;
  abandoned: Abandoned[] | undefined;
}
