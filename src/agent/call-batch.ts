import type { Subscription } from "rxjs";
import { CallFeed } from "./call-feed.js";
import { AWAITING_USER_RESPONSE, type ToolEvent } from "../run/events.js";
import { encodedMessage, haltMetadataOf, type HaltMetadata } from "../run/run-result.js";
import type { ToolMessage } from "../tool/message.js";
import { streamToolCalls } from "../run/stream.js";
import type { Tool } from "../tool/tool.js";
import type { ToolCall } from "../tool/tool-call.js";
import type { AgentEnv } from "./agent-options.js";
import { approvalNeeded, deniedMessage, overLimitMessage } from "./approval.js";
import type { ApprovalContext } from "../tool/approval/needs-approval.js";
import type { AgentEvent, UsageSource } from "./types.js";
import type { Message } from "../tool/message.js";
import type { PendingQuestion } from "../tool/approval/needs-approval.js";
import { LOOP_APPROVES, NESTED_EVENTS } from "../run/options.js";
import type { NestedEventReport } from "../run/call-report.js";
import type { Verdict } from "../tool/approval/approval-decision.js";

const NO_QUESTIONS: readonly PendingQuestion[] = /* @__PURE__ */ Object.freeze([]);
import { reportsTo } from "./report-events.js";
import type { RunJournal } from "./run-journal.js";
import type { JournalReattach } from "./journal-reattach.js";
import { recordingHandles, resendsInFlight, unknownFateMessage, type BatchJournal } from "./journal-calls.js";

/** Where a batch reports: the turn that owns it. */
export interface BatchSink {
  emit(event: AgentEvent): void;
  /** Something the loop cannot go on from: an approval rule threw, or the tool stream failed. */
  fail(error: unknown): void;
  /** Every call is settled and the batch was closed. */
  settled(): void;
}

/** What the loop shares with every batch of a run. */
export interface BatchEnv {
  readonly agent: AgentEnv;
  /** The run's own signal: the model's and every handler's; aborted on cancel, error and unsubscribe. */
  readonly signal: AbortSignal;
  /** Nothing but the ending is told (`runAgent`): no event is built for what nobody watches. */
  readonly quiet: boolean;
  /** The tools offered to the model (a resolver's `availableTools()`, read once per run). */
  readonly tools: readonly Tool[];
  lookup(name: string): Tool | undefined;
  /** A subagent run inside a call of this run ended, and reported tokens. */
  subagentUsage(share: Extract<UsageSource, { source: "subagent" }>): void;
  /** The run's journal, when the host gave one (`journal`). */
  readonly journal?: RunJournal;
}

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
      const answered = this.#answeredFromJournal(call, position, tool, this.#journal);
      if (answered === true) return;
      if (answered !== false) {
        // It was started (and approved) before: it follows its work again, asking no one.
        this.#run(answered, position);
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
      if (verdict.kind === "run") this.#run(verdict.call, position);
      else if (verdict.kind === "ask") this.awaitingApproval.push(verdict.call);
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

  /**
   * A call the journal knows: answered from its recorded outcome, or, when it was running as the
   * process stopped, re-attached to the work it named (the call to send instead), sent again if
   * that is safe, else answered with its fate unknown.
   */
  #answeredFromJournal(call: ToolCall, position: number, tool: Tool | undefined, j: BatchJournal): boolean | ToolCall {
    const recorded = j.journal.outcomeOf(j.phase, j.turn, call.id);
    if (recorded !== undefined) {
      this.#messages[position] = recorded.message;
      if (recorded.question !== undefined) this.#questions[position] = recorded.question;
      if (recorded.halt !== undefined) this.#halted(position, recorded.halt);
      return true;
    }
    if (!j.journal.wasStarted(j.phase, j.turn, call.id)) return false;
    const handle = j.journal.reattach === undefined ? undefined : j.journal.handleOf(j.phase, j.turn, call.id);
    if (handle !== undefined) {
      try {
        return (j.journal.reattach as JournalReattach).callOf(call, handle);
      } catch (e) {
        this.#fail(e);
        return true;
      }
    }
    if (resendsInFlight(tool, this.#env.agent.runOptions)) return false;
    const message = unknownFateMessage(call, this.#env.agent.encoder);
    this.#messages[position] = message;
    j.journal.recordOutcome(j.phase, j.turn, message);
    return true;
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
      const { runOptions, tools } = this.#env.agent;
      const options = {
        ...runOptions,
        signal: this.#env.signal,
        [LOOP_APPROVES]: true,
        [NESTED_EVENTS]: (report: NestedEventReport) => this.#nested(report),
      } as typeof runOptions;
      // One stream drives a UI: what happens inside calls comes as agent events too.
      if (!this.#env.quiet) options.onCallReport = reportsTo(runOptions.onCallReport, (event) => this.#over || this.#sink.emit(event), this.#turn);
      const j = this.#journal;
      // The journal hears each handle a call names (an MCP task id), whether or not the host listens.
      if (j?.journal.reattach !== undefined) options.onCallReport = recordingHandles(options.onCallReport, j, j.journal.reattach);
      const events = streamToolCalls(this.#input, tools, options);
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
    switch (event.type) {
      case "tool_result_encoded": {
        const message = encodedMessage(event);
        this.#messages[this.#positions[event.index] as number] = message;
        this.#recordOutcome(message);
        return;
      }
      case "tool_halt": {
        const position = this.#positions[event.index] as number;
        const message: ToolMessage = { role: "tool", toolCallId: event.toolCallId, name: event.toolName, content: event.content, isError: event.isError };
        this.#messages[position] = message;
        const halt = haltMetadataOf(event);
        this.#halted(position, halt);
        this.#recordOutcome(message, halt);
        return;
      }
      case "ask_user_requested": {
        const position = this.#positions[event.index] as number;
        const message: ToolMessage = { role: "tool", toolCallId: event.toolCallId, name: event.toolName, content: AWAITING_USER_RESPONSE, isError: false };
        this.#messages[position] = message;
        const question = { toolCallId: event.toolCallId, question: event.question, opts: event.opts };
        this.#questions[position] = question;
        const halt = haltMetadataOf(event);
        this.#halted(position, halt);
        this.#recordOutcome(message, halt, question);
        return;
      }
      default:
        return;
    }
  }

  /** A subagent's end carries its tokens: they are this run's too. Its own subagents' are in them already. */
  #nested(report: NestedEventReport): void {
    const event = report.event as AgentEvent;
    if (event.type !== "agent_halted" || event.usage === undefined) return;
    const { toolCallId, toolName } = report;
    this.#env.subagentUsage({ source: "subagent", turn: this.#turn, toolCallId, toolName, usage: event.usage, breakdown: event.usageBreakdown ?? [] });
  }

  #recordOutcome(message: ToolMessage, halt?: HaltMetadata, question?: PendingQuestion): void {
    const j = this.#journal;
    j?.journal.recordOutcome(j.phase, j.turn, message, halt, question);
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
