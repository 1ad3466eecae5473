import { from, type Observable, type Subscription } from "rxjs";
import type { HaltMetadata } from "../run/run-result.js";
import type { ToolMessage } from "../tool/message.js";
import { assertToolCall, isPlainRecord, type ToolCall } from "../tool/tool-call.js";
import { CallBatch, type BatchEnv, type BatchSink } from "./call-batch.js";
import { ModelEventError } from "./model-event-error.js";
import { LiveInput } from "./live-input.js";
import { planned, type PlannedTurn } from "./turn-plan.js";
import { isThenable } from "../tool/results.js";
import { questionMessage, withAnswersInPlace, type OpenTurn } from "./resume.js";
import { settleDecisions } from "./decisions.js";
import { isTokenUsage } from "./usage.js";
import type { Verdict } from "../tool/approval-decision.js";
import type { PendingQuestion } from "../tool/needs-approval.js";
import type { AgentEvent, FinishReason, ModelEvent, ModelRequest, TokenUsage } from "./types.js";
import type { AssistantMessage, Message } from "../tool/message.js";

/** What a turn added and left open, for the loop to decide whether to go on. */
export interface TurnOutcome {
  readonly turn: number;
  /** What this turn added to the conversation, in order. */
  readonly messages: readonly Message[];
  /** How many of `messages` the turn already put in the conversation (a resume's, before the model was asked). */
  readonly committed: number;
  /** Undefined when the turn settled a resume and stopped before asking the model. */
  readonly assistant: AssistantMessage | undefined;
  readonly toolMessages: readonly ToolMessage[];
  /** The lowest-position halt of the calls that ran (ask_user, tool_error, a handler's own). */
  readonly halt: HaltMetadata | undefined;
  readonly awaitingApproval: readonly ToolCall[];
  readonly manual: readonly ToolCall[];
  /** Every question of the turn still waiting for the user's words, in the model's order. */
  readonly questions: readonly PendingQuestion[];
  readonly finishReason: FinishReason | undefined;
}

/** Where a turn reports: the loop. */
export interface TurnSink {
  emit(event: AgentEvent): void;
  /** The turn cannot complete (model error, malformed event, an approval rule threw): it adds nothing. */
  failed(error: unknown): void;
  completed(outcome: TurnOutcome): void;
  /** The model reported the tokens its call used (a failed turn's count too: they were spent). */
  usage(usage: TokenUsage): void;
}

const FINISH_REASONS: ReadonlySet<string> = new Set(["stop", "tool_calls", "length", "content_filter", "error"]);

/**
 * One turn: first the calls a resumed conversation left pending (approved, denied, or still
 * waiting), then, unless those halt, one model request whose tool calls start as they arrive.
 */
export class Turn {
  readonly #env: BatchEnv;
  readonly #turn: number;
  readonly #conversation: Message[];
  readonly #open: OpenTurn | undefined;
  readonly #sink: TurnSink;
  readonly #added: Message[] = [];
  readonly #toolMessages: ToolMessage[] = [];
  readonly #text: string[] = [];
  /** The ids of this turn's calls, once there are too many to compare one by one. */
  #ids: Set<string> | undefined;
  #batch: CallBatch | undefined;
  #model: Subscription | undefined;
  #modelOver = false;
  #finishReason: FinishReason | undefined;
  #over = false;
  #committed = 0;
  #live: LiveInput | undefined;

  /** `conversation` is the loop's own copy: the turn may append the messages a resume adds. */
  constructor(env: BatchEnv, turn: number, conversation: Message[], open: OpenTurn | undefined, sink: TurnSink) {
    this.#env = env;
    this.#turn = turn;
    this.#conversation = conversation;
    this.#open = open;
    this.#sink = sink;
  }

  start(): void {
    if (!this.#env.quiet) this.#sink.emit({ type: "turn_started", turn: this.#turn });
    if (this.#over) return;
    const open = this.#open;
    if (open === undefined) {
      this.#askModel();
      return;
    }
    if (open.decisions.length === 0) {
      this.#settle(open, undefined);
      return;
    }
    // Every decision is checked before anything of the resume runs: one that does not match fails it closed.
    settleDecisions(open, this.#env, this.#conversation.slice()).then(
      (verdicts) => this.#over || this.#settle(open, verdicts),
      (e: unknown) => this.#fail(e),
    );
  }

  #settle(open: OpenTurn, verdicts: ReadonlyMap<string, Verdict> | undefined): void {
    const batch = new CallBatch(
      this.#env,
      this.#turn,
      this.#conversation.slice(),
      verdicts,
      this.#batchSink(() => this.#resumed(batch, open)),
    );
    this.#batch = batch;
    for (const call of open.calls) batch.add(call);
    batch.close();
  }

  /** Stop everything: the model's stream and the running handlers. Nothing more is reported. */
  cancel(): void {
    this.#over = true;
    this.#modelOver = true;
    this.#model?.unsubscribe();
    this.#batch?.cancel();
  }

  /** A literal, not a spread of a shared part: spreading an object of closures cost more per turn than the model's request. */
  #batchSink(settled: () => void): BatchSink {
    return { emit: (event) => this.#over || this.#sink.emit(event), fail: (error) => this.#fail(error), settled };
  }

  #resumed(batch: CallBatch, open: OpenTurn): void {
    const messages = batch.messages();
    this.#toolMessages.push(...messages);
    // A continuation's assistant message is in the conversation already, put there for this turn: it is this turn's.
    if (open.lead !== undefined) this.#added.push(open.lead);
    this.#added.push(...messages);
    // Each answer goes next to its call, before the question and the user's words that followed.
    const placed = withAnswersInPlace([...this.#conversation, ...messages], open.at);
    this.#conversation.splice(0, this.#conversation.length, ...placed);
    this.#committed = this.#added.length;
    if (open.questions.length > 0 || batch.halt !== undefined || batch.manual.length > 0 || batch.awaitingApproval.length > 0) {
      this.#complete(undefined, batch);
      return;
    }
    this.#askModel();
  }

  /** Ask the host's `prepareTurn` first, when there is one: its plan shapes this turn's request and tools. */
  #askModel(): void {
    const prepare = this.#env.agent.prepareTurn;
    if (prepare === undefined) {
      this.#request(this.#env, undefined, undefined);
      return;
    }
    let plan: unknown;
    try {
      plan = prepare({ turn: this.#turn, messages: this.#conversation.slice(), tools: this.#env.tools });
    } catch (e) {
      this.#fail(e);
      return;
    }
    if (isThenable(plan)) {
      Promise.resolve(plan).then(
        (p) => this.#over || this.#planned(p),
        (e: unknown) => this.#fail(e),
      );
      return;
    }
    this.#planned(plan);
  }

  #planned(plan: unknown): void {
    let turn: PlannedTurn;
    try {
      turn = planned(this.#env, plan);
    } catch (e) {
      this.#fail(e);
      return;
    }
    this.#request(turn.env, turn.messages, turn.modelOptions);
  }

  #request(env: BatchEnv, messages: readonly Message[] | undefined, modelOptions: Readonly<Record<string, unknown>> | undefined): void {
    const conversation = this.#conversation.slice();
    const request: ModelRequest = {
      messages: messages ?? conversation,
      tools: env.tools,
      turn: this.#turn,
      signal: env.signal,
    };
    if (modelOptions !== undefined) (request as { options?: Readonly<Record<string, unknown>> }).options = modelOptions;
    const batch = new CallBatch(
      env,
      this.#turn,
      conversation,
      undefined,
      this.#batchSink(() => this.#modelTurnDone(batch)),
    );
    this.#batch = batch;
    let events: Observable<ModelEvent>;
    try {
      events = from(this.#env.agent.model(request));
    } catch (e) {
      this.#fail(e);
      return;
    }
    const subscription = events.subscribe({
      next: (event) => this.#modelOver || this.#onModelEvent(event),
      error: (e: unknown) => this.#modelOver || this.#fail(e),
      complete: () => this.#modelOver || this.#modelDone(),
    });
    if (this.#modelOver) subscription.unsubscribe();
    else this.#model = subscription;
  }

  #onModelEvent(event: ModelEvent): void {
    if (!isPlainRecord(event)) {
      this.#fail(new ModelEventError(this.#turn, event, "an event that is not an object"));
      return;
    }
    switch (event.type) {
      case "text_delta":
        if (typeof event.text !== "string") {
          this.#fail(new ModelEventError(this.#turn, event, "a text_delta whose `text` is not a string"));
          return;
        }
        this.#text.push(event.text);
        if (!this.#env.quiet) this.#sink.emit({ type: "text_delta", turn: this.#turn, text: event.text });
        return;
      case "tool_call": {
        const call = event.call;
        const batch = this.#batch as CallBatch;
        try {
          assertToolCall(call, batch.calls.length);
        } catch (e) {
          this.#fail(new ModelEventError(this.#turn, event, `a malformed tool call (${(e as Error).message})`));
          return;
        }
        if (this.#seen(call.id, batch.calls)) {
          this.#fail(new ModelEventError(this.#turn, event, `a second tool call with the id "${call.id}"`));
          return;
        }
        const complete = this.#live?.complete(call);
        if (complete !== undefined) this.#sink.emit(complete);
        batch.add(call);
        return;
      }
      case "tool_input_started":
      case "tool_input_delta": {
        if (this.#env.quiet) return;
        this.#live ??= new LiveInput(this.#turn);
        const live = this.#live;
        const e = event as { id?: unknown; name?: unknown; delta?: unknown };
        const shown = event.type === "tool_input_started" ? live.started(e.id, e.name) : live.delta(e.id, e.delta);
        if (shown !== undefined) this.#sink.emit(shown);
        return;
      }
      case "finish":
        if (!FINISH_REASONS.has(event.reason)) {
          this.#fail(new ModelEventError(this.#turn, event, "a finish event with an unknown `reason`"));
          return;
        }
        if (event.reason === "error") {
          this.#fail(event.error);
          return;
        }
        this.#finishReason = event.reason;
        // `finish` ends the model's part of the turn: stop listening.
        this.#modelOver = true;
        this.#model?.unsubscribe();
        this.#modelDone();
        return;
      case "usage":
        if (!isTokenUsage(event.usage)) {
          this.#fail(new ModelEventError(this.#turn, event, "a usage event whose token counts are not non-negative numbers"));
          return;
        }
        this.#sink.usage(event.usage);
        return;
      default:
        this.#fail(new ModelEventError(this.#turn, event, "an event of unknown type"));
    }
  }

  /**
   * Whether a call of this turn already has `id`; remembers it otherwise. A turn holds a handful
   * of calls: comparing them costs a fraction of a `Set`'s upkeep, which takes over past 16.
   */
  #seen(id: string, calls: readonly ToolCall[]): boolean {
    if (this.#ids === undefined) {
      if (calls.length < 16) {
        for (const call of calls) if (call.id === id) return true;
        return false;
      }
      this.#ids = new Set(calls.map((call) => call.id));
    }
    if (this.#ids.has(id)) return true;
    this.#ids.add(id);
    return false;
  }

  #modelDone(): void {
    this.#modelOver = true;
    this.#batch?.close();
  }

  #modelTurnDone(batch: CallBatch): void {
    const calls = batch.calls;
    const assistant: AssistantMessage =
      calls.length === 0 ? { role: "assistant", content: this.#text.join("") } : { role: "assistant", content: this.#text.join(""), toolCalls: calls };
    const messages = batch.messages();
    this.#added.push(assistant, ...messages);
    this.#toolMessages.push(...messages);
    this.#finishReason ??= calls.length > 0 ? "tool_calls" : "stop";
    this.#complete(assistant, batch);
  }

  #complete(assistant: AssistantMessage | undefined, batch: CallBatch): void {
    if (this.#over) return;
    this.#over = true;
    const halt = batch.halt;
    // Every question reaches the user, whichever halt wins: one message carries them all.
    const asked = batch.questions();
    if (asked.length > 0) this.#added.push(questionMessage(asked));
    const carried = assistant === undefined ? (this.#open?.questions ?? []) : [];
    this.#sink.completed({
      turn: this.#turn,
      messages: this.#added,
      committed: this.#committed,
      assistant,
      toolMessages: this.#toolMessages,
      halt,
      awaitingApproval: batch.awaitingApproval,
      manual: batch.manual,
      questions: carried.length === 0 ? asked : [...carried, ...asked],
      finishReason: assistant === undefined ? undefined : this.#finishReason,
    });
  }

  #fail(error: unknown): void {
    if (this.#over) return;
    this.#over = true;
    // The loop aborts the run's signal with `error` first, so running handlers see the cause.
    this.#sink.failed(error);
    this.cancel();
  }
}
