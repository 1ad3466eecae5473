import type { HaltMetadata } from "../../run/results/run-result.js";
import type { AssistantMessage, ToolMessage } from "../../tool/message.js";
import type { PendingQuestion } from "../../tool/approval/needs-approval.js";
import type { ToolCall } from "../../tool/tool-call.js";
import { describe } from "../../tool/tool-error.js";
import type { ReplyState } from "../model/index.js";
import type { JournalReattach } from "./journal-reattach.js";

/**
 * One record of a conversation's journal, appended in the order things happened. Plain JSON, so
 * any store can keep it. `phase` tells the calls of a model's reply (`"model"`) from those a
 * resumed conversation settles before asking the model (`"resume"`: approved calls).
 */
export type JournalEntry =
  /** A run began on an input whose fingerprint is `input`: the entries up to the next `run` are its. */
  | { readonly type: "run"; readonly input: string }
  /**
   * A call is about to start; `text` is the model's text before it (the reply is still streaming),
   * and `state` what else of the reply had come (its reasoning, the provider's state on its text,
   * its provider items), so a restart replays them with the calls.
   */
  | {
      readonly type: "call";
      readonly turn: number;
      readonly phase: JournalPhase;
      readonly call: ToolCall;
      readonly text: string;
      readonly state?: ReplyState;
    }
  /** The model's reply is complete. */
  | {
      readonly type: "reply";
      readonly turn: number;
      readonly message: AssistantMessage;
      readonly finishReason: "stop" | "tool_calls" | "length" | "content_filter" | "error";
    }
  /** A call settled: its tool message, and the halt or question it raised. */
  | {
      readonly type: "outcome";
      readonly turn: number;
      readonly phase: JournalPhase;
      readonly message: ToolMessage;
      readonly halt?: HaltMetadata;
      readonly question?: PendingQuestion;
    }
  /**
   * A running call named the remote work it started (`journal.reattach` read the handle off its
   * report): a restart follows that work instead of answering the call with its fate unknown.
   */
  | { readonly type: "handle"; readonly turn: number; readonly phase: JournalPhase; readonly toolCallId: string; readonly handle: string }
  /**
   * The host's decisions a resume settles, as they were judged (token, conversation, expiry),
   * recorded before any approval is spent: a restart of the same input acts on them as judged
   * then (an executed call is answered from the record even after its token expired), and knows
   * a spend in `approvalLedger` as its own.
   */
  | { readonly type: "decided"; readonly turn: number; readonly verdicts: readonly JournalVerdict[] }
  /** The run ended; `error`: what an `error` or `cancelled` ending was. */
  | { readonly type: "halt"; readonly haltedReason: string; readonly error?: { readonly name: string; readonly message: string } };

/** What a recorded decision came to: run the call (as approved, maybe edited), ask again about edited arguments, or deny. */
export type JournalVerdict = { readonly toolCallId: string } & (
  | { readonly kind: "run"; readonly call: ToolCall }
  | { readonly kind: "ask"; readonly call: ToolCall }
  | { readonly kind: "deny"; readonly reason?: string }
);

/** Whose calls an entry records: a model reply's, or the ones a resume settles before asking the model. */
export type JournalPhase = "model" | "resume";

/**
 * Where a journal lives: four operations on an append-only list per conversation key, guarded by
 * a lease so that one process at a time writes it. Each may answer synchronously (the in-memory
 * store does, and then the loop never waits) or with a promise. A store for Postgres is a table
 * of `(key, seq, entry jsonb)` and a table of leases; see docs/durable.md.
 */
export interface JournalStore {
  /**
   * Take the lease on `key` for `owner` until `leaseMs` from now (or take it again, when `owner`
   * holds it already or the last holder's lease ran out) and read every entry so far.
   *
   * @throws {JournalLeaseError} when another owner's lease has not run out.
   */
  acquire(key: string, owner: string, leaseMs: number): readonly JournalEntry[] | Promise<readonly JournalEntry[]>;
  /**
   * Append `entries` in order, only while `owner` holds the lease.
   *
   * @throws {JournalLeaseError} when `owner` lost it (it ran out and another owner took it).
   */
  append(key: string, owner: string, entries: readonly JournalEntry[]): void | Promise<void>;
  /** Push the lease out to `leaseMs` from now; `false` when `owner` no longer holds it. */
  renew(key: string, owner: string, leaseMs: number): boolean | Promise<boolean>;
  /** Let go of the lease, and keep the entries `retainMs` more (`0`: delete them now; `Infinity`: keep them). */
  release(key: string, owner: string, retainMs: number): void | Promise<void>;
}

/**
 * The `journal` option of `streamAgent` and `runAgent`: record the run as it goes, so that the
 * same conversation started again after a crash resumes from the record instead of asking the
 * model again and running its calls twice.
 */
export interface JournalOptions {
  readonly store: JournalStore;
  /**
   * The conversation's stable id (yours: a thread id, a ticket number). A run started with the same
   * key and the same `messages` resumes from the journal; other `messages` start a new run in it.
   * Give the same key to `bullmqExecutor({ key })`, so its job ids survive the restart too.
   */
  readonly conversationKey: string;
  /**
   * Who holds the lease; default a random id per run. A process that restarts under a stable name
   * (a pod's name) takes its own lease back at once, instead of waiting for it to run out.
   */
  readonly owner?: string;
  /** How long the lease outlives its last renewal, in ms (it is renewed every third of it); default 30,000. */
  readonly leaseMs?: number;
  /** How long the journal is kept after a run ends, in ms; default 24 hours; `0` deletes it at once, `Infinity` keeps it. */
  readonly retainMs?: number;
  /**
   * How calls whose work outlives the process are picked up again (`mcpJournalReattach` from
   * `toolrx/mcp`, for MCP tasks); default none: such a call is answered with its fate unknown.
   */
  readonly reattach?: JournalReattach;
  /**
   * Start a new run from an input older than the conversation's latest recorded run (an earlier
   * run's input); default `false`, and such an input ends the run with `error` and a
   * `JournalStaleInputError`, having run nothing: the new run would ask the model again for turns
   * whose calls ran already. An input equal to the latest run's is played back either way.
   */
  readonly fork?: boolean;
}

/** {@link JournalOptions} checked, defaults filled in. */
export interface JournalEnv {
  readonly store: JournalStore;
  readonly key: string;
  readonly owner: string | undefined;
  readonly leaseMs: number;
  readonly retainMs: number;
  readonly reattach: JournalReattach | undefined;
  readonly fork: boolean;
}

/**
 * Check the `journal` option before anything runs.
 *
 * @throws {TypeError} naming the option that is wrong.
 */
export function checkJournalOptions(journal: unknown): JournalEnv | undefined {
  if (journal === undefined) return undefined;
  if (typeof journal !== "object" || journal === null) throw new TypeError(`Expected \`journal\` to be { store, conversationKey }, got ${describe(journal)}`);
  const { store, conversationKey, owner, leaseMs = 30_000, retainMs = 86_400_000, reattach, fork = false } = journal as JournalOptions;
  for (const method of ["acquire", "append", "renew", "release"] as const) {
    if (typeof (store as Partial<JournalStore> | undefined)?.[method] !== "function") {
      throw new TypeError(`Expected \`journal.store\` to be a JournalStore with \`${method}\`, got ${describe(store)}`);
    }
  }
  if (typeof conversationKey !== "string" || conversationKey === "") {
    throw new TypeError(`Expected \`journal.conversationKey\` to be a non-empty string, got ${describe(conversationKey)}`);
  }
  if (owner !== undefined && (typeof owner !== "string" || owner === "")) {
    throw new TypeError(`Expected \`journal.owner\` to be a non-empty string, got ${describe(owner)}`);
  }
  if (!(Number.isFinite(leaseMs) && leaseMs >= 10 && leaseMs <= 2_147_483_647)) {
    throw new TypeError(`Expected \`journal.leaseMs\` to be a number of milliseconds from 10 to 2147483647, got ${describe(leaseMs)}`);
  }
  if (!(typeof retainMs === "number" && retainMs >= 0 && !Number.isNaN(retainMs))) {
    throw new TypeError(`Expected \`journal.retainMs\` to be a non-negative number of milliseconds or Infinity, got ${describe(retainMs)}`);
  }
  if (reattach !== undefined && (typeof reattach?.handleOf !== "function" || typeof reattach.callOf !== "function")) {
    throw new TypeError(`Expected \`journal.reattach\` to be { handleOf, callOf }, got ${describe(reattach)}`);
  }
  if (typeof fork !== "boolean") throw new TypeError(`Expected \`journal.fork\` to be a boolean, got ${describe(fork)}`);
  return { store, key: conversationKey, owner, leaseMs, retainMs, reattach, fork };
}
