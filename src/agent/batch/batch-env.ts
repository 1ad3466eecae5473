import { isToolResolver } from "../../resolve/resolver.js";
import { assertExecutorsKnown, checkToolExecutors } from "../../run/options/tool-executors.js";
import type { Tool } from "../../tool/tool.js";
import { indexTools } from "../../tool/tool-index.js";
import type { AgentEnv } from "../options/index.js";
import type { RunJournal } from "../journal/index.js";
import { TurnRunners } from "./turn-runner.js";
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

/**
 * The batch env of one run, which `signal` belongs to. The tools are read here, once per run, so
 * a resolver is asked once, not once per call.
 *
 * @throws {TypeError} when a resolver's `availableTools()` is not a list of distinct tools on known executors.
 */
export function batchEnvOf(
  env: AgentEnv,
  signal: AbortSignal,
  quiet: boolean,
  subagentUsage: (share: Extract<UsageSource, { source: "subagent" }>) => void,
): BatchEnv {
  const { tools } = env;
  const list: readonly Tool[] = isToolResolver(tools) ? tools.availableTools() : tools;
  if (!Array.isArray(list)) throw new TypeError("Expected `availableTools()` to return an array of tools");
  const byName = indexTools(list, isToolResolver(tools) ? "availableTools()" : "tools");
  // A resolver's tools are first seen here: one on an executor the run lacks ends it before the model is asked.
  if (isToolResolver(tools)) assertExecutorsKnown(byName.values(), checkToolExecutors(env.runOptions.toolExecutors));
  return {
    agent: env,
    signal,
    quiet,
    tools: list,
    lookup: (name) => byName.get(name),
    subagentUsage,
    runners: new TurnRunners(signal),
  };
}
