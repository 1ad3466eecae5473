import type { Subscription } from "rxjs";
import { CallFeed } from "./call-feed.js";
import type { ToolEvent } from "../run/events.js";
import { encodedMessage, type HaltMetadata } from "../run/run-result.js";
import type { ToolMessage } from "../tool/message.js";
import type { ToolCall } from "../tool/tool-call.js";
import { approvalNeeded, deniedMessage, overLimitMessage } from "./approval.js";
import type { ApprovalContext } from "../tool/approval/needs-approval.js";
import type { Message } from "../tool/message.js";
import type { PendingQuestion } from "../tool/approval/needs-approval.js";
import type { NestedEventReport } from "../run/call-report.js";
import type { AgentEvent } from "./types.js";
import type { Verdict } from "../tool/approval/approval-decision.js";
import { assertToolCall } from "../tool/tool-call.js";
import { reportsTo } from "./report-events.js";
import { journalAnswer, recordingHandles, type BatchJournal, type JournalAnswer } from "./journal-calls.js";
import { batchAnswerOf } from "./batch-answer.js";
import type { BatchEnv, BatchSink } from "./batch-env.js";

const NO_QUESTIONS: readonly PendingQuestion[] = /* @__PURE__ */ Object.freeze([]);

/**
 * The calls of one phase of a turn (the model's calls, or the calls a resumed run settles before
 * asking the model), taken one at a time as they arrive: each is handed to the host (manual),
 * held for approval, answered as denied, or run at once through `streamToolCalls` on an
 * Observable of calls, so every `RunOptions` option applies and tools run while the model streams.
 * Results are kept by the call's position in the model's order, whatever order they finish in.
 */
export class CallBatch {
  /** Every call added, in the model's order. */
  readonly calls: ToolCall[] = [];
  readonly manual: ToolCall[] = [];
  readonly awaitingApproval: ToolCall[] = [];
  /** Every question the calls asked, by position (sparse). */
  readonly #questions: PendingQuestion[] = [];
  /** The lowest-position halt among the calls that ran. */
  halt: HaltMetadata | undefined;
  #haltAt = Infinity;
  readonly #messages: (ToolMessage | undefined)[] = [];
  /** Position in `calls` of each call the runner got, by the runner's arrival index. */
  readonly #positions: number[] = [];
  #input: CallFeed | undefined;
  #subscription: Subscription | undefined;
  #runnerDone = true;
  #inputDone = false;
  #checks = 0;
  #closed = false;
  #over = false;
  readonly #env: BatchEnv;
  readonly #turn: number;
  readonly #verdicts: ReadonlyMap<string, Verdict> | undefined;
  readonly #conversation: readonly Message[];
  readonly #sink: BatchSink;
  readonly #journal: BatchJournal | undefined;

  constructor(
    env: BatchEnv,
    turn: number,
    conversation: readonly Message[],
    verdicts: ReadonlyMap<string, Verdict> | undefined,
    sink: BatchSink,
    journal?: BatchJournal,
  ) {
    this.#env = env;
    this.#turn = turn;
    this.#conversation = conversation;
    this.#verdicts = verdicts;
    this.#sink = sink;
    this.#journal = journal;
  }

  /** Calls run at most: the model's turn sets `maxCallsPerTurn`; a resume's calls were counted already. */
  limit = Infinity;

  add(call: ToolCall): void {
    const position = this.calls.length;
    this.calls.push(call);
    if (position >= this.limit) {
      this.#messages[position] = overLimitMessage(call, this.limit, this.#env.agent.encoder);
      return;
    }
    const tool = this.#env.lookup(call.name);
    if (this.#journal?.journal.replaying === true) {
      let answer: ReturnType<typeof journalAnswer>;
      try {
        answer = journalAnswer(call, tool, this.#journal, this.#env.agent.runOptions, this.#env.agent.encoder);
      } catch (e) {
        this.#fail(e);
        return;
      }
      if (answer !== undefined) {
        // A call that was started (and approved) before follows its work again, asking no one.
        if ("reattach" in answer) this.#run(answer.reattach, position);
        else this.#answer(position, answer);
        return;
      }
    }
    if (this.#env.agent.manualMode || tool?.manual === true) {
      this.manual.push(call);
      return;
    }
    // The host's decision stands as given: the rule is not asked again (its answer may have
    // changed since), so a denied call never runs. Only edited arguments are asked about again.
    const verdict = this.#verdicts?.get(call.id);
    if (verdict !== undefined) {
      if (verdict.kind === "run") {
        // The runner takes checked calls: the conversation's were, an edited call is checked here.
        try {
          assertToolCall(verdict.call, position);
        } catch (e) {
          this.#fail(e);
          return;
        }
        this.#run(verdict.call, position);
      } else if (verdict.kind === "ask") this.awaitingApproval.push(verdict.call);
      else this.#messages[position] = deniedMessage(call, verdict.reason, this.#env.agent.encoder);
      return;
    }
    let needed: boolean | Promise<boolean>;
    try {
      needed = tool?.needsApproval === undefined ? false : approvalNeeded(tool, call, this.#approvalContext(call), this.#env.agent.validate);
    } catch (e) {
      this.#fail(e);
      return;
    }
    if (typeof needed === "boolean") {
      this.#route(call, position, needed);
      return;
    }
    this.#checks++;
    needed.then(
      (yes) => {
        if (this.#over) return;
        this.#checks--;
        this.#route(call, position, yes);
        this.#maybeSettled();
      },
      (e: unknown) => this.#over || this.#fail(e),
    );
  }

  /** No more calls will come. */
  close(): void {
    this.#closed = true;
    this.#maybeSettled();
  }

  /** Stop: running handlers are aborted (by the run's signal, or by unsubscribing), nothing more is reported. */
  cancel(): void {
    this.#over = true;
    this.#subscription?.unsubscribe();
  }

  /** The tool messages of the calls answered here, in the model's order. */
  messages(): ToolMessage[] {
    return this.#messages.filter((m): m is ToolMessage => m !== undefined);
  }

  /** Every question the calls asked, in the model's order. */
  questions(): readonly PendingQuestion[] {
    // Most turns ask nothing: no array is made for them.
    return this.#questions.length === 0 ? NO_QUESTIONS : this.#questions.filter(() => true);
  }

  #route(call: ToolCall, position: number, needsApproval: boolean): void {
    if (needsApproval) this.awaitingApproval.push(call);
    else this.#run(call, position);
  }

  #run(call: ToolCall, position: number): void {
    const j = this.#journal;
    // A call is on record before it starts: a restart then knows it may have run.
    const durable = j?.journal.recordCall(j.phase, j.turn, call, j.text());
    if (durable === undefined) {
      this.#start(call, position);
      return;
    }
    this.#checks++;
    durable.then(
      () => {
        if (this.#over) return;
        this.#checks--;
        this.#start(call, position);
        this.#maybeSettled();
      },
      (e: unknown) => this.#over || this.#fail(e),
    );
  }

  #start(call: ToolCall, position: number): void {
    if (this.#input === undefined) {
      this.#input = new CallFeed();
      this.#runnerDone = false;
      const { agent, quiet, runners } = this.#env;
      // One stream drives a UI: what happens inside calls comes as agent events too.
      let onReport = quiet ? undefined : reportsTo(agent.runOptions.onCallReport, (event) => this.#over || this.#sink.emit(event), this.#turn);
      const j = this.#journal;
      // The journal hears each handle a call names (an MCP task id), whether or not the host listens;
      // a quiet run's host still hears its own reports after it.
      if (j?.journal.reattach !== undefined) onReport = recordingHandles(onReport ?? agent.runOptions.onCallReport, j, j.journal.reattach);
      const events = runners.stream(agent, this.#input, (report) => this.#nested(report), onReport);
      this.#subscription = events.subscribe({
        next: (event) => this.#onEvent(event),
        error: (e: unknown) => this.#over || this.#fail(e),
        complete: () => {
          this.#runnerDone = true;
          this.#maybeSettled();
        },
      });
    }
    this.#positions.push(position);
    this.#input.next(call);
  }

  #onEvent(event: ToolEvent): void {
    if (this.#over) return;
    if (!this.#env.quiet) this.#sink.emit({ type: "tool_event", turn: this.#turn, event });
    const position = this.#positions[event.index] as number;
    if (event.type === "tool_result_encoded") {
      // The common answer, kept without a wrapper object.
      const message = encodedMessage(event);
      this.#messages[position] = message;
      const j = this.#journal;
      j?.journal.recordOutcome(j.phase, j.turn, message);
      return;
    }
    const answer = batchAnswerOf(event);
    if (answer === undefined) return;
    this.#answer(position, answer);
    const j = this.#journal;
    j?.journal.recordOutcome(j.phase, j.turn, answer.message, answer.halt, answer.question);
  }

  /** Keep a call's answer in its place: its message, its question, its halt. */
  #answer(position: number, answer: JournalAnswer): void {
    this.#messages[position] = answer.message;
    if (answer.question !== undefined) this.#questions[position] = answer.question;
    if (answer.halt !== undefined) this.#halted(position, answer.halt);
  }

  /** A subagent's end carries its tokens: they are this run's too. Its own subagents' are in them already. */
  #nested(report: NestedEventReport): void {
    const event = report.event as AgentEvent;
    if (event.type !== "agent_halted" || event.usage === undefined) return;
    const { toolCallId, toolName } = report;
    this.#env.subagentUsage({ source: "subagent", turn: this.#turn, toolCallId, toolName, usage: event.usage, breakdown: event.usageBreakdown ?? [] });
  }

  #halted(position: number, halt: HaltMetadata): void {
    if (position < this.#haltAt) {
      this.#haltAt = position;
      this.halt = halt;
    }
  }

  #approvalContext(call: ToolCall): ApprovalContext {
    const { context, sessionId, requestId } = this.#env.agent;
    return { toolCall: call, messages: this.#conversation, context, sessionId, requestId, signal: this.#env.signal };
  }

  #maybeSettled(): void {
    if (this.#over || !this.#closed || this.#checks > 0) return;
    // The runner's input ends only once no approval check can still send it a call.
    if (!this.#inputDone) {
      this.#inputDone = true;
      this.#input?.complete(); // may complete the runner, and settle, synchronously
    }
    if (this.#over || !this.#runnerDone) return;
    this.#over = true;
    this.#sink.settled();
  }

  #fail(error: unknown): void {
    if (this.#over) return;
    this.#over = true;
    this.#subscription?.unsubscribe();
    this.#sink.fail(error);
  }
}
