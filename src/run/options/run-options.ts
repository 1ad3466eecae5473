import type { RepairToolCall } from "../../tool/repair-tool-call.js";
import type { SchedulerLike, Subscribable } from "rxjs";
import type { ToolResultEncoder } from "../../tool/encoder.js";
import type { ToolExecutor } from "../../tool/executor.js";
import type { RetryPolicy } from "../../tool/retry-policy.js";
import type { ApprovalLedger } from "../../tool/approval/approval-ledger.js";
import type { ApprovalSecrets } from "../../tool/approval/approval-token.js";
import type { ApprovalMessage } from "../../tool/message.js";
import type { CallReport } from "../results/index.js";
import type { OnToolError } from "./policy.js";
import type { CallHook } from "../../tool/call-hook.js";

/** Engine-wide defaults a batch falls back on. */
export interface EngineLike {
  toolExecutor?: ToolExecutor;
  toolResultEncoder?: ToolResultEncoder;
  context?: unknown;
}

/** Options of {@link streamToolCalls} and {@link runToolCalls}. */
export interface RunOptions {
  /** Defaults for executor, encoder and context; also handed to handlers as `ctx.engine`. */
  engine?: EngineLike;
  /** Default: `engine.toolExecutor ?? defaultExecutor`. */
  toolExecutor?: ToolExecutor;
  /**
   * Executors by name, for tools that name theirs (`control.executor`): one batch may run some
   * tools on BullMQ or a worker pool and the rest on `toolExecutor`, under the same limits,
   * deadlines, events and reports. A tool naming an executor that is not here is refused
   * before anything runs. Default: none.
   */
  toolExecutors?: Readonly<Record<string, ToolExecutor>>;
  /** Default: `engine.toolResultEncoder ?? jsonEncoder`. */
  toolResultEncoder?: ToolResultEncoder;
  /** Default `"continue"`. */
  onToolError?: OnToolError;
  /** Milliseconds per call, from its handler's start; `Infinity` for none. Default `30_000`. */
  toolTimeout?: number;
  /** Default `max(1, min(calls.length, 2 × cores))`; `2 × cores` for an Observable of calls. */
  maxConcurrency?: number;
  /** Handed to handlers as `ctx.context`. Default `engine.context ?? {}`. */
  context?: unknown;
  sessionId?: string;
  requestId?: string;
  /** Aborts the whole batch: running handlers see it on `ctx.signal`, nothing new starts. */
  signal?: AbortSignal;
  /** Check arguments against the tool's schema before the handler runs. Default `true`. */
  validateArguments?: boolean;
  /** Where deadlines are scheduled. Default `asyncScheduler`; pass a `TestScheduler` for virtual time. */
  scheduler?: SchedulerLike;
  /**
   * Milliseconds a call may go without a progress report (`ctx.progress`) before it answers
   * `timeout`; each report restarts it. Counts from the handler's start, always capped by
   * `toolTimeout`. Default `Infinity` (none).
   */
  toolIdleTimeout?: number;
  /**
   * The side channel: what happens inside each call (progress, recipe sub-steps, retried
   * attempts, late settlements). A call's reports arrive before its `completed` event, except
   * `late_settlement`. Called synchronously; keep it cheap.
   */
  onCallReport?: (report: CallReport) => void;
  /**
   * Ids of calls to cancel while the rest of the batch goes on (a "stop" button): a call id, or
   * `{ toolCallId, reason }`. The call is answered with a `CallCancelledError` through
   * `onToolError`; a running handler's `ctx.signal` aborts with it.
   */
  cancel?: Subscribable<string | CallCancellation>;
  /** Retries for tools declared `control.idempotent` (all tools with `nonIdempotent: true`); a tool's own `control.retry` wins. */
  retry?: RetryPolicy;
  /**
   * How long, after a call stopped waiting for its handler (deadline or cancel), to watch for it
   * to settle before reporting `late_settlement` with `settled: false`. Only with
   * `onCallReport`. Default `5_000`.
   */
  settleGrace?: number;
  /**
   * A batch call naming a tool that is not in `tools`: `"fail"` (default) fails the whole batch
   * with an `EngineError` before any tool runs; `"answer"` answers that call alone with a
   * `not_found` error listing the tools that exist, through `onToolError`, and runs the rest.
   * Streamed calls are always answered.
   */
  onUnknownTool?: "fail" | "answer";
  /**
   * Guardrails around every call: each hook's `before` sees the validated arguments and may let
   * the call through, rewrite them, answer it or refuse it; its `after` sees the result and may
   * replace it. They wrap the tools' own hooks; see {@link CallHook} for order and failures.
   */
  hooks?: readonly CallHook[];
  /**
   * Characters of a tool message the model reads at most (an integer from 64): longer content
   * keeps its head and tail, with a marker saying how much was cut between them. A tool's
   * `control.outputBudget` wins. The `completed` event keeps the whole result. Default: no limit.
   */
  outputBudget?: number;
  /**
   * The host's decisions on calls whose tool `needsApproval` (the batch runner; the agent loop
   * reads them from the conversation). Without one, such a call does not run: it halts with
   * `approval_required`, the pending approval as its result.
   */
  approvals?: readonly ApprovalMessage[];
  /**
   * Bind every decision to the call it was asked for: pending approvals carry an HMAC `token`
   * over the conversation (`sessionId`), the call id, tool name and arguments, and a decision
   * without a matching token runs nothing. Several secrets rotate: the first signs, each
   * verifies. Keep them on the server.
   */
  approvalSecret?: ApprovalSecrets;
  /**
   * Milliseconds a pending approval's token is accepted for, on the run's `scheduler` clock; a
   * later decision is refused `token_expired`. Needs `approvalSecret`. Default: no expiry.
   */
  approvalTokenTtl?: number;
  /** Where approvals are spent, so that a replayed request never runs an approved call twice. */
  approvalLedger?: ApprovalLedger;
  /**
   * Asked for repaired arguments when a call's arguments fail validation: what it returns is
   * validated again before anything runs, and a call it cannot repair is answered with its issues
   * as without it. Never applied to tools with `needsApproval`. See {@link RepairToolCall}.
   */
  repairToolCall?: RepairToolCall;
}

/** A cancel request: which call, and what to tell the model. */
export interface CallCancellation {
  readonly toolCallId: string;
  /** Appended to the model's text; default none. */
  readonly reason?: string;
}
