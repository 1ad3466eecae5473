import type { Tool } from "../../tool/tool.js";
import type { AgentEnv } from "../options/index.js";
import type { RunJournal } from "../journal/index.js";
import type { TurnRunners } from "./turn-runner.js";
import type { AgentEvent } from "../events/index.js";
import type { UsageSource } from "../model/index.js";

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
  /** Each turn's runner, its options resolved once per run. */
  readonly runners: TurnRunners;
}
