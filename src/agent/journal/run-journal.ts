import type { HaltMetadata } from "../../run/results/run-result.js";
import type { AssistantMessage, Message, ToolMessage } from "../../tool/message.js";
import type { PendingQuestion } from "../../tool/approval/needs-approval.js";
import type { ToolCall } from "../../tool/tool-call.js";
import type { JournalEntry, JournalEnv, JournalPhase, JournalVerdict } from "./journal.js";
import { type ReplyState, assistantMessage, type FinishReason } from "../model/index.js";
import { fingerprintOf, runOf } from "./input-fingerprint.js";
import { JournalStaleInputError } from "./journal-stale-input-error.js";
import type { JournalReattach } from "./journal-reattach.js";
import { JournalWriter } from "./journal-writer.js";
import { errorRecord, type RecordedEnding } from "./recorded-ending-error.js";

/** A model reply as the journal gives it back: the whole reply, or (`partial`) the calls that had started when the process stopped. */
export interface RecordedReply {
  readonly message: AssistantMessage;
  readonly finishReason: FinishReason;
  readonly partial: boolean;
}

/** A call's recorded outcome. */
export type RecordedOutcome = Extract<JournalEntry, { type: "outcome" }>;

/**
 * One run's view of its conversation's journal: what an earlier run of the same input recorded
 * (read once, when the lease is taken), and the writer of what this run does. A call's record is
 * durable before the call starts (the batch waits for it); the outcomes that settle in one tick go
 * in one append after it (a synchronous turn's, all of them); everything is durable before the
 * turn completes ({@link flush}).
 */
export class RunJournal {
  readonly #env: JournalEnv;
  readonly #replies = new Map<number, { message: AssistantMessage; finishReason: FinishReason }>();
  /** Calls recorded as started, by phase and turn, in the order they started. */
  readonly #started = new Map<string, { call: ToolCall; text: string; state?: ReplyState }[]>();
  readonly #outcomes = new Map<string, RecordedOutcome>();
  /** The latest handle each call named (`journal.reattach`), by phase, turn and call id. */
  readonly #handles = new Map<string, string>();
  /** The decisions each turn's resume settled, as judged then. */
  readonly #decided = new Map<number, readonly JournalVerdict[]>();
  /** How the run of this input ended, when it did. */
  #ending: RecordedEnding | undefined;
  readonly #writer: JournalWriter;
  /**
   * Whether an earlier run of this input left entries to play back. A fresh run looks nothing up:
   * it only writes, so a call costs two appends and no index.
   */
  #replaying = false;

  private constructor(env: JournalEnv, owner: string) {
    this.#env = env;
    this.#writer = new JournalWriter(env, owner);
  }

  /** Take the conversation's lease and read what a run of this same input recorded before. */
  static async open(env: JournalEnv, input: readonly Message[]): Promise<RunJournal> {
    const owner = env.owner ?? globalThis.crypto.randomUUID();
    const journal = new RunJournal(env, owner);
    const entries = await env.store.acquire(env.key, owner, env.leaseMs);
    const fingerprint = fingerprintOf(input);
    const start = runOf(entries, fingerprint);
    if (start === "stale" && !env.fork) {
      await env.store.release(env.key, owner, env.retainMs);
      throw new JournalStaleInputError(env.key);
    }
    if (typeof start !== "number") await env.store.append(env.key, owner, [{ type: "run", input: fingerprint }]);
    else {
      journal.#replaying = start + 1 < entries.length;
      for (let i = start + 1; i < entries.length; i++) journal.#load(entries[i] as JournalEntry);
    }
    journal.#writer.renewing();
    return journal;
  }

  /** The conversation key: what approvals and job ids bind to when a journal is used. */
  get key(): string {
    return this.#env.key;
  }

  /** The reply recorded for model turn `turn`, if any: whole, or the calls that had started. */
  replyOf(turn: number): RecordedReply | undefined {
    if (!this.#replaying) return undefined;
    const whole = this.#replies.get(turn);
    if (whole !== undefined) return { ...whole, partial: false };
    const started = this.#started.get(`model:${turn}`);
    if (started === undefined) return undefined;
    // The model was still writing when the process stopped: its reply is what it had said by the last call that started.
    const last = started[started.length - 1] as { text: string; state?: ReplyState };
    const message = assistantMessage(
      last.text,
      started.map((s) => s.call),
      last.state?.reasoning,
      last.state?.providerItems,
      last.state?.textState,
    );
    return { message, finishReason: "tool_calls", partial: true };
  }

  /** Whether anything of an earlier run is on record: when not, no call needs looking up. */
  get replaying(): boolean {
    return this.#replaying;
  }

  outcomeOf(phase: JournalPhase, turn: number, id: string): RecordedOutcome | undefined {
    if (!this.#replaying) return undefined;
    return this.#outcomes.get(`${phase}:${turn}:${id}`);
  }

  wasStarted(phase: JournalPhase, turn: number, id: string): boolean {
    if (!this.#replaying) return false;
    return this.#started.get(`${phase}:${turn}`)?.some((s) => s.call.id === id) === true;
  }

  /** The decisions the resume of turn `turn` settled, as recorded before any was spent. */
  decisionsOf(turn: number): readonly JournalVerdict[] | undefined {
    return this.#replaying ? this.#decided.get(turn) : undefined;
  }

  /** Record the decisions a resume settled; resolves once that is durable (undefined: it already is). */
  recordDecisions(turn: number, verdicts: readonly JournalVerdict[]): Promise<void> | undefined {
    const entry: JournalEntry = { type: "decided", turn, verdicts };
    if (this.#replaying) this.#load(entry);
    return this.#writer.write(entry);
  }

  /** How the run of this input ended, when an earlier start of it got that far. */
  get ending(): RecordedEnding | undefined {
    return this.#ending;
  }

  /** How calls whose work outlives the process are picked up again, when the host said. */
  get reattach(): JournalReattach | undefined {
    return this.#env.reattach;
  }

  /** The handle a call that was running when the process stopped last named, if any. */
  handleOf(phase: JournalPhase, turn: number, id: string): string | undefined {
    if (!this.#replaying) return undefined;
    return this.#handles.get(`${phase}:${turn}:${id}`);
  }

  /** Record the handle a running call named; the same handle again is not written twice. */
  recordHandle(phase: JournalPhase, turn: number, toolCallId: string, handle: string): void {
    const at = `${phase}:${turn}:${toolCallId}`;
    if (this.#handles.get(at) === handle || this.#outcomes.has(at)) return;
    this.#handles.set(at, handle);
    this.#writer.write({ type: "handle", turn, phase, toolCallId, handle })?.catch(noop);
  }

  /** Record that `call` starts; resolves once that is durable (undefined: it already is). */
  recordCall(phase: JournalPhase, turn: number, call: ToolCall, text: string, state?: ReplyState): Promise<void> | undefined {
    if (this.wasStarted(phase, turn, call.id)) return undefined;
    const entry: JournalEntry = state === undefined ? { type: "call", turn, phase, call, text } : { type: "call", turn, phase, call, text, state };
    if (this.#replaying) this.#load(entry);
    return this.#writer.write(entry);
  }

  recordReply(turn: number, message: AssistantMessage, finishReason: FinishReason): void {
    if (this.#replaying && this.#replies.has(turn)) return;
    const entry: JournalEntry = { type: "reply", turn, message, finishReason };
    if (this.#replaying) this.#load(entry);
    this.#writer.write(entry)?.catch(noop);
  }

  recordOutcome(phase: JournalPhase, turn: number, message: ToolMessage, halt?: HaltMetadata, question?: PendingQuestion): void {
    const entry = { type: "outcome", turn, phase, message } as { -readonly [K in keyof RecordedOutcome]: RecordedOutcome[K] };
    if (halt !== undefined) entry.halt = halt;
    if (question !== undefined) entry.question = question;
    // Only a replayed run can meet an outcome on record already (a fresh run answers each call once): only it keeps the index.
    if (this.#replaying) {
      if (this.#outcomes.has(`${phase}:${turn}:${message.toolCallId}`)) return;
      this.#load(entry);
    }
    // Nothing waits on an outcome being durable before the turn ends: it goes with the tick's others, in one append.
    this.#writer.later(entry);
  }

  /** Resolves once every record so far is durable; rejects with the first write that failed. */
  flush(): Promise<void> | undefined {
    return this.#writer.flush();
  }

  /**
   * Record the run's ending (unless it is the one on record already), make everything durable,
   * and let go of the lease (the entries stay `retainMs`). `error`: what an `error` or
   * `cancelled` ending was, kept as its name and message.
   */
  async end(haltedReason: string, error?: unknown): Promise<void> {
    try {
      if (this.#ending?.haltedReason !== haltedReason) {
        const entry = { type: "halt", haltedReason } as { -readonly [K in keyof Halt]: Halt[K] };
        if (haltedReason === "error" || haltedReason === "cancelled") entry.error = errorRecord(error);
        // After the outcomes kept for this tick, in the same append.
        this.#writer.later(entry);
      }
      await this.flush();
    } finally {
      await this.release();
    }
  }

  /** Stop renewing and let go of the lease, keeping the entries `retainMs`. */
  release(): Promise<void> {
    return this.#writer.release();
  }

  #load(entry: JournalEntry): void {
    switch (entry.type) {
      case "call": {
        const at = `${entry.phase}:${entry.turn}`;
        const list = this.#started.get(at);
        const started = entry.state === undefined ? { call: entry.call, text: entry.text } : { call: entry.call, text: entry.text, state: entry.state };
        if (list === undefined) this.#started.set(at, [started]);
        else list.push(started);
        return;
      }
      case "reply":
        this.#replies.set(entry.turn, { message: entry.message, finishReason: entry.finishReason });
        return;
      case "outcome":
        this.#outcomes.set(`${entry.phase}:${entry.turn}:${entry.message.toolCallId}`, entry);
        return;
      case "handle":
        this.#handles.set(`${entry.phase}:${entry.turn}:${entry.toolCallId}`, entry.handle);
        return;
      case "decided":
        this.#decided.set(entry.turn, entry.verdicts);
        return;
      case "halt":
        this.#ending = entry.error === undefined ? { haltedReason: entry.haltedReason } : { haltedReason: entry.haltedReason, error: entry.error };
        return;
    }
  }
}

function noop(): void {}

type Halt = Extract<JournalEntry, { type: "halt" }>;
