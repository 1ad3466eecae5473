import { from, type Observable } from "rxjs";
import type { ToolMessage } from "../../tool/message.js";
import { CallBatch, type BatchEnv, type BatchSink } from "../batch/index.js";
import { ModelReply } from "./model-reply.js";
import type { TurnSink } from "./turn-outcome.js";
import type { FinishReason, ModelEvent, ModelRequest } from "../model/index.js";
import { planned, type PlannedTurn } from "./turn-plan.js";
import { modelTurnsIn } from "../prepare-turn/index.js";
import { isThenable } from "../../tool/results.js";
import { questionMessage, withAnswersInPlace, type OpenTurn } from "../conversation/index.js";
import { settleDecisions } from "./decisions.js";
import type { Verdict } from "../../tool/approval/approval-decision.js";
import type { AssistantMessage, Message } from "../../tool/message.js";
import { replayOf, RecordedEndingError } from "../journal/index.js";

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
  #batch: CallBatch | undefined;
  #reply: ModelReply | undefined;
  #over = false;
  #committed = 0;

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
    settleDecisions(open, this.#env, this.#conversation.slice(), this.#turn).then(
      (verdicts) => this.#over || this.#settle(open, verdicts),
      (e: unknown) => this.#fail(e),
    );
  }

  #settle(open: OpenTurn, verdicts: ReadonlyMap<string, Verdict> | undefined): void {
    const journal = this.#env.journal;
    const batch: CallBatch = new CallBatch(
      this.#env,
      this.#turn,
      this.#conversation.slice(),
      verdicts,
      this.#batchSink(() => this.#resumed(batch, open)),
      journal === undefined ? undefined : { journal, phase: "resume", turn: this.#turn, text: () => "" },
    );
    this.#batch = batch;
    for (const call of open.calls) batch.add(call);
    batch.close();
  }

  /** Stop everything: the model's stream and the running handlers. Nothing more is reported. */
  cancel(): void {
    this.#over = true;
    this.#reply?.stop();
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
    if (this.#endedOnRecord(() => this.#env.journal?.replyOf(this.#turn) === undefined)) return;
    const prepare = this.#env.agent.prepareTurn;
    if (prepare === undefined) {
      this.#request(this.#env, undefined, undefined);
      return;
    }
    let plan: unknown;
    try {
      const messages = this.#conversation.slice();
      plan = prepare({ turn: this.#turn, conversationTurn: modelTurnsIn(messages), messages, tools: this.#env.tools });
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
    const journal = this.#env.journal;
    const batch: CallBatch = new CallBatch(
      env,
      this.#turn,
      conversation,
      undefined,
      this.#batchSink(() => this.#modelTurnDone(batch, this.#reply as ModelReply)),
      journal === undefined ? undefined : { journal, phase: "model", turn: this.#turn, text: (): string => reply.text, state: () => reply.state },
    );
    batch.limit = this.#env.agent.maxCallsPerTurn;
    this.#batch = batch;
    const reply: ModelReply = new ModelReply(this.#turn, this.#env.quiet, batch, {
      emit: (event) => this.#sink.emit(event),
      usage: (usage) => this.#sink.usage(usage),
      fail: (error) => this.#fail(error),
      replied: (message, finishReason) => {
        journal?.recordReply(this.#turn, message, finishReason);
        if (!this.#env.quiet) this.#sink.emit({ type: "model_reply", turn: this.#turn, message, finishReason });
      },
    });
    this.#reply = reply;
    let events: Observable<ModelEvent>;
    try {
      // A reply on record is played back, original call ids and all: the model is not asked again.
      const recorded = journal?.replyOf(this.#turn);
      events = recorded === undefined ? from(this.#env.agent.model(request)) : from(replayOf(recorded));
    } catch (e) {
      this.#fail(e);
      return;
    }
    reply.listen(events);
  }

  /** The batch settles only once closed, which the reply does when the model is done: its message is built by then. */
  #modelTurnDone(batch: CallBatch, reply: ModelReply): void {
    const assistant = reply.message as AssistantMessage;
    const messages = batch.messages();
    this.#added.push(assistant, ...messages);
    this.#toolMessages.push(...messages);
    this.#complete(assistant, batch, reply.finishReason ?? (batch.calls.length > 0 ? "tool_calls" : "stop"));
  }

  #complete(assistant: AssistantMessage | undefined, batch: CallBatch, finishReason?: FinishReason): void {
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
      finishReason,
    });
  }

  /**
   * A run whose ending is on record plays back to it: where its record ends (`live()`: the next
   * step would ask the model anew), the turn fails with the ending on record instead of doing
   * what the first run did not get to. True when it did. (Decisions not on record are judged
   * again: they were refused, nothing ran, and a refusal stands, with its own error.)
   */
  #endedOnRecord(live: () => boolean): boolean {
    const ending = this.#env.journal?.ending;
    if (ending === undefined || !live()) return false;
    this.#fail(new RecordedEndingError(ending.haltedReason, ending.error));
    return true;
  }

  #fail(error: unknown): void {
    if (this.#over) return;
    this.#over = true;
    // The loop aborts the run's signal with `error` first, so running handlers see the cause.
    this.#sink.failed(error);
    this.cancel();
  }
}
