import type { HaltMetadata } from "../../run/results/run-result.js";
import type { ApprovalContext, PendingQuestion } from "../../tool/approval/needs-approval.js";
import type { Verdict } from "../../tool/approval/approval-decision.js";
import type { Message, ToolMessage } from "../../tool/message.js";
import { assertToolCall, type ToolCall } from "../../tool/tool-call.js";
import { approvalNeeded, deniedMessage, overLimitMessage } from "./approval.js";
import { BatchAnswers } from "./batch-answers.js";
import type { BatchEnv, BatchSink } from "./batch-env.js";
import { BatchRunner, type RunnerHost } from "./batch-runner.js";
import { journalAnswer, type BatchJournal } from "../journal/index.js";

/**
 * The calls of one phase of a turn (the model's calls, or the calls a resumed run settles before
 * asking the model), taken one at a time as they arrive: each is handed to the host (manual),
 * held for approval, answered as denied, or run at once through `streamToolCalls` on an
 * Observable of calls, so every `RunOptions` option applies and tools run while the model streams.
 * Results are kept by the call's position in the model's order, whatever order they finish in.
 */
export class CallBatch implements RunnerHost {
  /** Every call added, in the model's order. */
  readonly calls: ToolCall[] = [];
  readonly manual: ToolCall[] = [];
  readonly awaitingApproval: ToolCall[] = [];
  readonly #answers = new BatchAnswers();
  /** Made with the first call that runs: a turn that runs no call makes none. */
  #runner: BatchRunner | undefined;
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

  /** The batch ended (settled, failed or cancelled): nothing more is reported or kept. */
  get over(): boolean {
    return this.#over;
  }

  /** The lowest-position halt among the calls that ran. */
  get halt(): HaltMetadata | undefined {
    return this.#answers.halt;
  }

  add(call: ToolCall): void {
    const position = this.calls.length;
    this.calls.push(call);
    if (position >= this.limit) {
      this.#answers.message(position, overLimitMessage(call, this.limit, this.#env.agent.encoder));
      return;
    }
    const tool = this.#env.lookup(call.name);
    if (this.#journal?.journal.replaying === true) {
      let answer: ReturnType<typeof journalAnswer>;
      try {
        answer = journalAnswer(call, tool, this.#journal, this.#env.agent.runOptions, this.#env.agent.encoder);
      } catch (e) {
        this.fail(e);
        return;
      }
      if (answer !== undefined) {
        // A call that was started (and approved) before follows its work again, asking no one.
        if ("reattach" in answer) this.#run(answer.reattach, position);
        else this.#answers.answer(position, answer);
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
          this.fail(e);
          return;
        }
        this.#run(verdict.call, position);
      } else if (verdict.kind === "ask") this.awaitingApproval.push(verdict.call);
      else this.#answers.message(position, deniedMessage(call, verdict.reason, this.#env.agent.encoder));
      return;
    }
    let needed: boolean | Promise<boolean>;
    try {
      needed = tool?.needsApproval === undefined ? false : approvalNeeded(tool, call, this.#approvalContext(call), this.#env.agent.validate);
    } catch (e) {
      this.fail(e);
      return;
    }
    if (typeof needed === "boolean") this.#route(call, position, needed);
    else this.#routeAfter(needed, call, position);
  }

  /** No more calls will come. */
  close(): void {
    this.#closed = true;
    this.#maybeSettled();
  }

  /** Stop: running handlers are aborted (by the run's signal, or by unsubscribing), nothing more is reported. */
  cancel(): void {
    this.#over = true;
    this.#runner?.stop();
  }

  /** The tool messages of the calls answered here, in the model's order. */
  messages(): ToolMessage[] {
    return this.#answers.messages();
  }

  /** Every question the calls asked, in the model's order. */
  questions(): readonly PendingQuestion[] {
    return this.#answers.questions();
  }

  /**
   * Route `call` once its approval rule answers. A method of its own: a closure over `call` in
   * {@link add} would make V8 allocate its context on every call, answered synchronously or not.
   */
  #routeAfter(needed: Promise<boolean>, call: ToolCall, position: number): void {
    this.#after(needed, (yes) => this.#route(call, position, yes));
  }

  #route(call: ToolCall, position: number, needsApproval: boolean): void {
    if (needsApproval) this.awaitingApproval.push(call);
    else this.#run(call, position);
  }

  #run(call: ToolCall, position: number): void {
    const j = this.#journal;
    // A call is on record before it starts: a restart then knows it may have run.
    const durable = j?.journal.recordCall(j.phase, j.turn, call, j.text(), j.state?.());
    if (durable === undefined) this.#start(call, position);
    else this.#startAfter(durable, call, position);
  }

  /** Start `call` once its record is durable; a method of its own for the reason {@link #routeAfter} gives. */
  #startAfter(durable: Promise<void>, call: ToolCall, position: number): void {
    this.#after(durable, () => this.#start(call, position));
  }

  /** Go on with `then` once `pending` settles (an approval rule's answer, a journal write): the batch cannot settle before it. */
  #after<T>(pending: Promise<T>, then: (value: T) => void): void {
    this.#checks++;
    pending.then(
      (value) => {
        if (this.#over) return;
        this.#checks--;
        then(value);
        this.#maybeSettled();
      },
      (e: unknown) => this.#over || this.fail(e),
    );
  }

  #start(call: ToolCall, position: number): void {
    this.#runner ??= new BatchRunner(this.#env, this.#turn, this.#sink, this.#answers, this.#journal, this);
    this.#runner.start(call, position);
  }

  #approvalContext(call: ToolCall): ApprovalContext {
    const { context, sessionId, requestId } = this.#env.agent;
    return { toolCall: call, messages: this.#conversation, context, sessionId, requestId, signal: this.#env.signal };
  }

  /** The runner's side of {@link RunnerHost}: every call it got is answered. */
  completed(): void {
    this.#maybeSettled();
  }

  #maybeSettled(): void {
    if (this.#over || !this.#closed || this.#checks > 0) return;
    // The runner's input ends only once no approval check can still send it a call.
    if (!this.#inputDone) {
      this.#inputDone = true;
      this.#runner?.end(); // may complete the runner, and settle, synchronously
    }
    if (this.#over || this.#runner?.done === false) return;
    this.#over = true;
    this.#sink.settled();
  }

  /** Something the loop cannot go on from: the batch stops and the turn is told. */
  fail(error: unknown): void {
    if (this.#over) return;
    this.#over = true;
    this.#runner?.stop();
    this.#sink.fail(error);
  }
}
