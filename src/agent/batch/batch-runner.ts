import type { NestedEventReport } from "../../run/results/call-report.js";
import type { ToolEvent } from "../../run/results/events.js";
import { encodedMessage } from "../../run/results/run-result.js";
import type { ToolCall } from "../../tool/tool-call.js";
import type { BatchAnswers } from "./batch-answers.js";
import { batchAnswerOf } from "./batch-answer.js";
import type { BatchEnv, BatchSink } from "./batch-env.js";
import type { CheckedFeed, FeedHost } from "../../run/checked-feed.js";
import { recordingHandles, type BatchJournal } from "../journal/index.js";
import { reportsTo } from "./report-events.js";
import type { NestedHost } from "./turn-runner.js";
import type { AgentEvent } from "../events/index.js";

/** What a batch's runner asks of the batch that owns it. */
export interface RunnerHost {
  /** The batch ended (settled, failed or cancelled): nothing more is reported or kept. */
  readonly over: boolean;
  /** The tool stream failed: the loop cannot go on. */
  fail(error: unknown): void;
  /** The runner completed: every call it was given is answered. */
  completed(): void;
}

/**
 * The one runner of a batch, each call pushed into it as it is cleared to run, so every
 * `RunOptions` option applies and tools run while the model still streams: it starts with the
 * first call cleared to run and takes the others as they are cleared. Each event goes to the
 * turn's stream; each answer to its call's place in the model's order, and to the journal.
 */
export class BatchRunner implements FeedHost, NestedHost {
  /** Position in the batch of each call the runner got, by the runner's arrival index. */
  readonly #positions: number[] = [];
  #feed: CheckedFeed | undefined;
  #done = true;
  readonly #env: BatchEnv;
  readonly #turn: number;
  readonly #sink: BatchSink;
  readonly #answers: BatchAnswers;
  readonly #journal: BatchJournal | undefined;
  readonly #host: RunnerHost;

  constructor(env: BatchEnv, turn: number, sink: BatchSink, answers: BatchAnswers, journal: BatchJournal | undefined, host: RunnerHost) {
    this.#env = env;
    this.#turn = turn;
    this.#sink = sink;
    this.#answers = answers;
    this.#journal = journal;
    this.#host = host;
  }

  /** No call is running or can still report: none was started, or the runner completed. */
  get done(): boolean {
    return this.#done;
  }

  /** Run `call`, the batch's call at `position`. */
  start(call: ToolCall, position: number): void {
    const feed = this.#feed ?? this.#open();
    this.#positions.push(position);
    feed.push(call);
  }

  /**
   * The runner, made with the first call. Apart from {@link start}: its closures over `this` there
   * would make V8 allocate their context on every call, not only on the first.
   */
  #open(): CheckedFeed {
    this.#done = false;
    const { agent, quiet, runners } = this.#env;
    // One stream drives a UI: what happens inside calls comes as agent events too.
    let onReport = quiet ? undefined : reportsTo(agent.runOptions.onCallReport, (event) => this.#host.over || this.#sink.emit(event), this.#turn);
    const j = this.#journal;
    // The journal hears each handle a call names (an MCP task id), whether or not the host listens;
    // a quiet run's host still hears its own reports after it.
    if (j?.journal.reattach !== undefined) onReport = recordingHandles(onReport ?? agent.runOptions.onCallReport, j, j.journal.reattach);
    const feed = runners.feed(agent, this, this, onReport);
    this.#feed = feed;
    return feed;
  }

  /** No more calls will come: the runner completes once those it has are answered (maybe synchronously). */
  end(): void {
    this.#feed?.end();
  }

  /** Stop: running handlers are aborted, nothing more is reported. */
  stop(): void {
    this.#feed?.stop();
  }

  /** The feed's side of {@link FeedHost}: the tool stream failed, the loop cannot go on. */
  failed(error: unknown): void {
    if (!this.#host.over) this.#host.fail(error);
  }

  /** The feed's side of {@link FeedHost}: every call it was given is answered. */
  completed(): void {
    this.#done = true;
    this.#host.completed();
  }

  /** The feed's side of {@link FeedHost}: one event of a call. */
  event(event: ToolEvent): void {
    if (this.#host.over) return;
    if (!this.#env.quiet) this.#sink.emit({ type: "tool_event", turn: this.#turn, event });
    const position = this.#positions[event.index] as number;
    const j = this.#journal;
    if (event.type === "tool_result_encoded") {
      // The common answer, kept without a wrapper object.
      const message = encodedMessage(event);
      this.#answers.message(position, message);
      j?.journal.recordOutcome(j.phase, j.turn, message);
      return;
    }
    const answer = batchAnswerOf(event);
    if (answer === undefined) return;
    this.#answers.answer(position, answer);
    j?.journal.recordOutcome(j.phase, j.turn, answer.message, answer.halt, answer.question);
  }

  /** The runners' side of {@link NestedHost}: a subagent's end carries its tokens, this run's too. Its own subagents' are in them already. */
  nested(report: NestedEventReport): void {
    const event = report.event as AgentEvent;
    if (event.type !== "agent_halted" || event.usage === undefined) return;
    const { toolCallId, toolName } = report;
    this.#env.subagentUsage({ source: "subagent", turn: this.#turn, toolCallId, toolName, usage: event.usage, breakdown: event.usageBreakdown ?? [] });
  }
}
