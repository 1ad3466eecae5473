import type { Subscriber } from "rxjs";
import type { AgentEnv } from "../options/index.js";
import { batchEnvOf, type BatchEnv } from "../batch/index.js";
import { haltAfter, type AgentHalt } from "./halt-order.js";
import { UsageTally } from "./usage-tally.js";
import { lastTurnAt, openTurnOf, withAnswersInPlace } from "../conversation/index.js";
import { pendingApproval } from "../../tool/approval/approval-binding.js";
import type { PendingApproval } from "../../tool/approval/needs-approval.js";
import { continuationOf } from "../subagents/index.js";
import { Turn, type TurnOutcome } from "../turn/index.js";
import type { AgentEvent } from "../events/index.js";
import type { Message } from "../../tool/message.js";
import { RunJournal, RecordedEndingError } from "../journal/index.js";

/**
 * One subscription to `streamAgent`: turns one after another until a reason ends the loop.
 * Owns the run's AbortController, which is the model's `signal` and every handler's, so that
 * cancelling, failing or unsubscribing reaches everything that runs.
 */
export class AgentRun {
  readonly #env: AgentEnv;
  readonly #subscriber: Subscriber<AgentEvent>;
  readonly #controller = new AbortController();
  readonly #conversation: Message[];
  #turn: Turn | undefined;
  #turns = 0;
  #over = false;
  #batchEnv: BatchEnv | undefined;
  /** Turns run in a loop, not by recursion, so a long run of synchronous turns keeps a flat stack. */
  #advance = false;
  #looping = false;
  #onAbort: (() => void) | undefined;
  /** Every usage the model and the subagents reported in this run. */
  readonly #usage = new UsageTally();
  #journal: RunJournal | undefined;

  readonly #quiet: boolean;

  /** `quiet`: emit `agent_halted` alone (for `runAgent`, which shows nothing else). */
  constructor(env: AgentEnv, subscriber: Subscriber<AgentEvent>, quiet = false) {
    this.#env = env;
    this.#subscriber = subscriber;
    this.#quiet = quiet;
    this.#conversation = env.messages.slice();
  }

  /** Start the first turn; returns the teardown. */
  start(): () => void {
    const { signal } = this.#env;
    if (signal?.aborted) {
      this.#cancel(signal.reason);
      return noop;
    }
    if (signal !== undefined) {
      this.#onAbort = () => this.#cancel(signal.reason);
      signal.addEventListener("abort", this.#onAbort);
    }
    try {
      this.#batchEnv = batchEnvOf(this.#env, this.#controller.signal, this.#quiet, (share) => this.#usage.subagent(share));
    } catch (e) {
      this.#end({ haltedReason: "error", metadata: { error: e } });
    }
    const journal = this.#env.journal;
    if (journal === undefined || this.#over) this.#next();
    else
      RunJournal.open(journal, this.#env.messages).then(
        (opened) => {
          if (this.#over) {
            opened.release().catch(noop);
            return;
          }
          this.#journal = opened;
          this.#batchEnv = { ...(this.#batchEnv as BatchEnv), journal: opened };
          this.#next();
        },
        (e: unknown) => this.#end({ haltedReason: "error", metadata: { error: e } }),
      );
    return () => this.#stop();
  }

  /** The consumer let go: abort everything, emit nothing more. */
  #stop(): void {
    this.#release();
    if (this.#over) return;
    this.#over = true;
    this.#journal?.release().catch(noop);
    this.#turn?.cancel();
    this.#controller.abort(new DOMException("The agent stream was unsubscribed", "AbortError"));
  }

  #release(): void {
    if (this.#onAbort !== undefined) this.#env.signal?.removeEventListener("abort", this.#onAbort);
    this.#onAbort = undefined;
    this.#batchEnv?.runners.close();
  }

  #emit(event: AgentEvent): void {
    if (this.#over) return;
    this.#subscriber.next(event);
    // A consumer that lets go inside `next` (take, first) stops the run before the teardown is known.
    if (this.#subscriber.closed) this.#stop();
  }

  #next(): void {
    this.#advance = true;
    if (this.#looping) return;
    this.#looping = true;
    while (this.#advance && !this.#over) {
      this.#advance = false;
      this.#startTurn();
    }
    this.#looping = false;
  }

  #startTurn(): void {
    const turn = this.#turns;
    // A subagent's resume comes first: what the host appended after its question is the subagent's.
    const continuation = turn === 0 ? continuationOf(this.#conversation) : undefined;
    // Read where the host put each decision before the answers move.
    const open = continuation ?? (turn === 0 ? openTurnOf(this.#conversation) : undefined);
    // Answers the host appended after its own words go next to their calls before anything else.
    if (turn === 0 && continuation === undefined)
      this.#conversation.splice(0, this.#conversation.length, ...withAnswersInPlace(this.#conversation, lastTurnAt(this.#conversation)));
    if (continuation?.lead !== undefined) this.#conversation.push(continuation.lead);
    const run = new Turn(this.#batchEnv as BatchEnv, turn, this.#conversation, open, {
      emit: (event) => this.#emit(event),
      failed: (error) => this.#failed(error),
      completed: (outcome) => this.#completed(outcome),
      usage: (usage) => this.#usage.model(usage),
    });
    this.#turn = run;
    run.start();
  }

  #completed(outcome: TurnOutcome): void {
    if (this.#over) return;
    // What the turn did is durable before anything follows from it (the next request, the ending).
    const flushed = this.#journal?.flush();
    if (flushed !== undefined) {
      flushed.then(
        () => this.#afterTurn(outcome),
        (e: unknown) => this.#failed(e),
      );
      return;
    }
    this.#afterTurn(outcome);
  }

  #afterTurn(outcome: TurnOutcome): void {
    if (this.#over) return;
    this.#turn = undefined;
    if (outcome.assistant !== undefined) this.#turns++;
    // A resume's tool messages are in already: the model was asked with them.
    for (let i = outcome.committed; i < outcome.messages.length; i++) this.#conversation.push(outcome.messages[i] as Message);
    if (!this.#quiet) this.#emit({ type: "turn_completed", turn: outcome.turn, messages: outcome.messages });
    if (this.#over) return;
    let halt: AgentHalt | undefined;
    try {
      halt = haltAfter(outcome, this.#env, this.#turns);
    } catch (e) {
      halt = { haltedReason: "error", metadata: { error: e } };
    }
    if (halt === undefined) this.#next();
    else if (this.#env.approvalBinding.secret === undefined || halt.metadata.pendingApprovals === undefined) this.#end(halt);
    else this.#endWithTokens(halt);
  }

  /** Each pending approval gets the token a decision on it must give back. */
  #endWithTokens(halt: AgentHalt): void {
    const pending = halt.metadata.pendingApprovals as readonly PendingApproval[];
    const binding = this.#env.approvalBinding;
    Promise.all(pending.map((p) => pendingApproval({ id: p.toolCallId, name: p.toolName, arguments: p.arguments }, binding))).then(
      (tokened) => this.#end({ haltedReason: halt.haltedReason, metadata: { ...halt.metadata, pendingApprovals: tokened } }),
      (e: unknown) => this.#end({ haltedReason: "error", metadata: { error: e } }),
    );
  }

  #failed(error: unknown): void {
    if (this.#over) return;
    this.#turn = undefined;
    // Abort what the failed turn left running (its handlers, the model's request) with the cause.
    this.#controller.abort(error);
    this.#end(endingOf(error));
  }

  #cancel(reason: unknown): void {
    if (this.#over) return;
    const turn = this.#turn;
    this.#turn = undefined;
    // The signal's reason reaches every running handler and the model before anything is torn down.
    this.#over = true;
    this.#controller.abort(reason);
    turn?.cancel();
    this.#over = false;
    this.#end({ haltedReason: "cancelled", metadata: { reason } });
  }

  #end(halt: AgentHalt): void {
    if (this.#over) return;
    this.#over = true;
    this.#release();
    this.#turn?.cancel();
    const journal = this.#journal;
    if (journal === undefined) {
      this.#emitEnd(halt);
      return;
    }
    // The ending is on record before anyone hears of it; a journal that could not keep up fails the run closed.
    const cause = halt.haltedReason === "cancelled" ? halt.metadata.reason : halt.metadata.error;
    journal.end(halt.haltedReason, cause).then(
      () => this.#emitEnd(halt),
      (e: unknown) => this.#emitEnd({ haltedReason: "error", metadata: { error: e } }),
    );
  }

  #emitEnd(halt: AgentHalt): void {
    // The loop writes each reason's metadata in halt-order.ts; the ending's type names those shapes.
    const event: Record<string, unknown> = {
      type: "agent_halted",
      haltedReason: halt.haltedReason,
      metadata: halt.metadata,
      messages: this.#conversation.slice(),
    };
    this.#usage.writeTo(event);
    this.#subscriber.next(event as unknown as AgentEvent);
    this.#subscriber.complete();
  }
}

function noop(): void {}

/** How a failed turn ends the run: with `error`, or, where the journal played back to a recorded ending, with that one. */
function endingOf(error: unknown): AgentHalt {
  if (error instanceof RecordedEndingError && error.haltedReason === "cancelled") return { haltedReason: "cancelled", metadata: { reason: error } };
  return { haltedReason: "error", metadata: { error } };
}
