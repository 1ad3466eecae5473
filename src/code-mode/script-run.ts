import { Subject } from "rxjs";
import {
  error,
  halt,
  ok,
  type ApprovalMessage,
  type HandlerContext,
  type HandlerResult,
  type PendingApproval,
  RESERVED_HALT_REASONS,
  type streamToolCalls,
  type Tool,
  type ToolCall,
  type ToolEvent,
} from "../index.js";
import { nestedReporterOf } from "../internal.js";
import { isPlainRecord } from "../util/safe.js";
import { CodeModeError } from "./code-mode-error.js";
import type { Limits, NestedRunOptions } from "./code-mode-options.js";
import type { NestedAnswer, RecordedCall, ScriptRecord } from "./replay-record.js";
import { answerOf, notAnObject } from "./nested-answer.js";
import type { NestedContinuation, NestedQuestion, ScriptEnd } from "./script-end.js";
import type { LeaseEvent, SandboxLease, SandboxPool } from "./sandbox-pool.js";
import { readScriptOutcome } from "./sandbox-message.js";
import { checkNestedCall } from "./nested-call-check.js";

/** One script's run: the sandbox runs the script, the host runs its nested calls through the batch runner. */
export interface ScriptRun {
  readonly tools: readonly Tool[];
  readonly stream: typeof streamToolCalls;
  readonly pool: SandboxPool;
  readonly limits: Limits;
  readonly run: NestedRunOptions;
  readonly script: string;
  readonly ctx: HandlerContext;
  /** The record of the halt this run resumes, if it does. */
  readonly record: ScriptRecord | undefined;
  /** The host's decisions on the record's pending approvals. */
  readonly approvals: readonly ApprovalMessage[];
  /** The record's call that asked for a subagent's halt, run again as its continuation. */
  readonly continuation?: NestedContinuation | undefined;
}

const reserved: ReadonlySet<string> = new Set(RESERVED_HALT_REASONS);

/** How long past `cpuMs` a slice of guest code may go unanswered before its thread is terminated. */
export const STUCK_GRACE_MS = 1_000;

/**
 * Run a script to its end. Each nested call the script makes becomes a call of one streamed
 * batch (`stream(calls$, tools, options)`), so it has the runner's deadline, limits, hooks,
 * retries, approvals and closed errors; its events go to the parent's stream as nested events.
 * On resume, calls the record answered are answered from it, in the order the script read them
 * before, and never run again; a call that differs from the record's ends the script `diverged`.
 * A slice's calls start together when it ends, those past `maxInFlight` wait, in the script's order.
 */
export function runScript(r: ScriptRun): Promise<ScriptEnd> {
  const { ctx, limits, record } = r;
  const baseId = record?.baseId ?? ctx.toolCall.id;
  const now = record?.now ?? Date.now();
  const seed = record?.seed ?? Math.floor(Math.random() * 2 ** 32);
  const recorded = new Map<number, RecordedCall>((record?.calls ?? []).map((c) => [c.seq, c]));
  const prefix = (record?.calls ?? []).filter((c) => c.delivered);
  const report = nestedReporterOf(ctx);
  return new Promise<ScriptEnd>((resolve) => {
    const order: RecordedCall[] = [];
    const issued = new Map<number, { name: string; args: string }>(); // as the record keeps them, not the text
    const names: ReadonlySet<string> = new Set(r.tools.map((t) => t.name));
    const inFlight = new Map<number, number>(); // bytes of arguments of each call not yet answered
    let inFlightBytes = 0;
    const held = new Map<number, NestedAnswer>();
    const running = new Map<string, number>();
    const results = new Map<string, HandlerResult>();
    const pending: PendingApproval[] = [];
    const queued: { seq: number; name: string; args: unknown }[] = [];
    let question: (NestedQuestion & { seq: number }) | undefined;
    let halted: { seq: number; reason: string; result: unknown } | undefined;
    let replayed = 0;
    let lease: SandboxLease | undefined;
    let ended = false;
    const calls$ = new Subject<ToolCall>();
    const options = {
      ...r.run,
      context: ctx.context,
      sessionId: ctx.sessionId,
      requestId: ctx.requestId,
      signal: ctx.signal,
      approvals: r.approvals.length === 0 ? undefined : r.approvals,
    };
    const end = (outcome: ScriptEnd, kill = false): void => {
      if (ended) return;
      ended = true;
      ctx.signal.removeEventListener("abort", onAbort);
      subscription.unsubscribe();
      if (kill) lease?.kill();
      else lease?.release();
      resolve(outcome);
    };
    const fail = (code: CodeModeError["code"], message: string, kill = false): undefined =>
      void end({ type: "result", result: error(new CodeModeError(code, message)) }, kill);
    // The call's deadline or cancellation: the thread is ended at once (the runner answers the call).
    const onAbort = (): void => fail("killed", "the call was cancelled", true);
    const halting = (): boolean => pending.length > 0 || question !== undefined || halted !== undefined;

    const deliver = (seq: number, answer: NestedAnswer): void => {
      const call = issued.get(seq) as { name: string; args: string };
      order.push({ seq, name: call.name, args: call.args, answer, delivered: !halting() });
      if (!halting()) lease?.answer(seq, answer.ok, answer.text);
    };
    /** Answers go to the script in the recorded order first, then as they come. */
    const pump = (): undefined => {
      while (replayed < prefix.length) {
        const next = prefix[replayed] as RecordedCall;
        if (!issued.has(next.seq)) return;
        replayed++;
        deliver(next.seq, next.answer as NestedAnswer);
      }
      for (const [seq, answer] of [...held].sort(([a], [b]) => a - b)) {
        held.delete(seq);
        deliver(seq, answer);
      }
      if (halting() && running.size === 0) haltForHost();
    };
    const unhold = (seq: number): void => {
      inFlightBytes -= inFlight.get(seq) ?? 0;
      inFlight.delete(seq);
    };
    const answered = (seq: number, answer: NestedAnswer): undefined => {
      unhold(seq);
      held.set(seq, answer);
      pump();
    };
    const haltForHost = (): void => {
      // A handler's own halt ends the script for good, as it ends a subagent: nothing resumes it.
      if (halted !== undefined) {
        end({ type: "result", result: halt(halted.reason, halted.result) });
        return;
      }
      // Calls the script made but that never ran (queued, or asking after the first question) are left out: the replay makes them again.
      const open = pending.map((p) => waiting(Number(p.toolCallId.slice(baseId.length + 1)), false));
      if (question !== undefined) open.push(waiting(question.seq, true));
      const asked = question === undefined ? undefined : { toolCallId: question.toolCallId, question: question.question, opts: question.opts };
      end({ type: "held", pending, question: asked, record: { baseId, now, seed, calls: [...order, ...open] } });
    };
    const waiting = (seq: number, asked: boolean): RecordedCall => {
      const call = issued.get(seq) as { name: string; args: string };
      return { seq, name: call.name, args: call.args, delivered: false, ...(asked ? { asked } : {}) };
    };
    const start = (seq: number, name: string, args: unknown): void => {
      const id = `${baseId}.${seq}`;
      running.set(id, seq);
      const resumes = r.continuation?.seq === seq ? r.continuation.metadata : {};
      calls$.next({ id, name, arguments: args as Record<string, unknown>, metadata: { codeMode: { parent: ctx.toolCall.id }, ...resumes } });
    };
    /** A slot freed: the next queued call takes it, unless the script is halting (then the replay makes it again). */
    const startQueued = (): void => {
      while (!ended && !halting() && queued.length > 0 && running.size < limits.maxInFlight) {
        const next = queued.shift() as { seq: number; name: string; args: unknown };
        start(next.seq, next.name, next.args);
      }
    };

    const onCall = (seq: number, name: string, text: string): undefined => {
      const checked = checkNestedCall(seq, name, text, limits, { count: issued.size, names, inFlightBytes });
      if (!checked.ok) return fail(checked.code, checked.message, true);
      const { args, bytes, kept } = checked;
      issued.set(seq, { name, args: kept });
      inFlight.set(seq, bytes);
      inFlightBytes += bytes;
      if (issued.size > limits.maxCalls) return fail("too_many_calls", `more than ${limits.maxCalls} nested calls`);
      const before = recorded.get(seq);
      if (before !== undefined) {
        if (before.name !== name || before.args !== kept)
          return fail("diverged", `on resume, call ${seq + 1} was ${name}(${kept}), not ${before.name}(${before.args}) as before the halt`);
        if (before.answer !== undefined) {
          if (!before.delivered) return answered(seq, before.answer);
          unhold(seq);
          return pump();
        }
      }
      if (halting()) return; // made after a halt began: never run; the replay makes it again
      if (!isPlainRecord(args)) return answered(seq, notAnObject(name, args));
      queued.push({ seq, name, args }); // started with its slice's others at "idle": a halt must not drop one a loaded machine delayed
    };

    const onEvent = (event: ToolEvent): void => {
      report?.(event);
      const seq = running.get(event.toolCallId);
      if (seq === undefined) return;
      if (event.type === "tool_execution_completed") results.set(event.toolCallId, event.result);
      if (event.type === "tool_execution_started" || event.type === "tool_execution_completed") return;
      running.delete(event.toolCallId);
      if (event.type === "tool_halt" && event.reason === "approval_required") pending.push(event.result as PendingApproval);
      else if (event.type === "ask_user_requested") {
        // One question per halt, the script's first; a later asking call runs again on replay.
        if (question === undefined || seq < question.seq) question = { seq, toolCallId: event.toolCallId, question: event.question, opts: event.opts };
      } else if (event.type === "tool_halt" && !reserved.has(event.reason)) {
        if (halted === undefined || seq < halted.seq) halted = { seq, reason: event.reason, result: event.result };
      } else {
        answered(seq, answerOf(event, results.get(event.toolCallId)));
        startQueued();
        return;
      }
      pump();
    };

    const onSandbox = (message: LeaseEvent): void => {
      if (ended) return;
      try {
        if (message.type === "call") onCall(message.seq, message.name, message.args);
        else if (message.type === "idle") startQueued();
        else if (message.type === "lost") fail(message.code, message.message, true);
        else if (message.type === "done") onDone(message);
      } catch (thrown) {
        // Our own slip on a message the guest shaped: the script ends, the host does not.
        fail("protocol_error", `the host could not take the sandbox's message: ${thrown instanceof Error ? thrown.message : String(thrown)}`, true);
      }
    };
    const onDone = (message: Extract<LeaseEvent, { type: "done" }>): undefined => {
      if (halting()) return; // the halt waits for its running calls, not for the script
      const skipped = [...recorded.keys()].find((seq) => !issued.has(seq));
      if (skipped !== undefined) {
        const before = recorded.get(skipped) as RecordedCall;
        return fail("diverged", `on resume, the script ended without making call ${skipped + 1}, ${before.name}(${before.args}), as it did before the halt`);
      }
      const outcome = readScriptOutcome(message, limits.maxResultBytes);
      if (outcome.ok) end({ type: "result", result: ok(outcome.value) });
      else fail(outcome.code, outcome.message, outcome.kill);
    };

    // Subscribed now, inside the call: a traced runner takes the code-mode call's span as the parent.
    const subscription = r.stream(calls$, r.tools, options).subscribe({
      next: onEvent,
      error: (e: unknown) => end({ type: "result", result: error(e) }),
    });
    if (ctx.signal.aborted) {
      onAbort();
      return;
    }
    ctx.signal.addEventListener("abort", onAbort, { once: true });
    r.pool.lease().then(
      (taken) => {
        if (ended) return taken.release();
        lease = taken;
        taken.start({ script: r.script, names: r.tools.map((t) => t.name), limits, now, seed }, onSandbox, limits.cpuMs + STUCK_GRACE_MS);
      },
      (e: unknown) => fail("killed", e instanceof Error ? e.message : String(e)),
    );
  });
}
