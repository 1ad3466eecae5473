import type { CallReport, NestedEventReport } from "../../run/results/call-report.js";
import { CheckedFeed, type FeedHost } from "../../run/checked-feed.js";
import { SharedAbort } from "../../run/pool/index.js";
import { LOOP_APPROVES, resolveOptions, type RunEnv } from "../../run/options/options.js";
import type { RunOptions } from "../../run/options/run-options.js";
import { toolSource, type ToolSource } from "../../run/options/tool-source.js";
import { isToolResolver } from "../../resolve/resolver.js";
import type { AgentEnv } from "../options/index.js";

/** A run's runner options and tool index for one tool set, resolved once. */
interface Resolved {
  readonly env: RunEnv;
  /** `undefined` for a resolver: its `availableTools()` is read by each turn's runner, as a bare runner would. */
  readonly source: ToolSource | undefined;
}

/**
 * The runner each turn's calls go through, its options resolved once per run (and per tool set a
 * turn plan narrows to) instead of once per turn: the checks and defaults of `RunOptions`, the
 * tool index. The run's options were checked when the run was asked for (`runAgent` throws the
 * `TypeError` then), so resolving them again each turn could only find them as they were.
 */
export class TurnRunners {
  readonly #resolved = new WeakMap<AgentEnv, Resolved>();
  readonly #signal: AbortSignal;
  /** One listener on the run's signal for every turn's pool, rather than one added and removed per turn. */
  readonly #abort: SharedAbort;

  /** `signal`: the run's own, which every handler of every turn gets. */
  constructor(signal: AbortSignal) {
    this.#signal = signal;
    this.#abort = new SharedAbort(signal);
  }

  /** The run ended: no turn will run, so the run's signal needs no listener of the runners' any more. */
  close(): void {
    this.#abort.close();
  }

  /**
   * The runner over one turn's calls, which the model's reply (or the conversation a resume reads)
   * has checked already: each is pushed into it, its events go to `host`. `onNested` takes the
   * events of runs nested in a call; `onReport`, when given, replaces the host's `onCallReport` (a
   * watched run turns reports into agent events).
   */
  feed(agent: AgentEnv, host: FeedHost, onNested: (report: NestedEventReport) => void, onReport: ((report: CallReport) => void) | undefined): CheckedFeed {
    let resolved = this.#resolved.get(agent);
    if (resolved === undefined) {
      const options = { ...agent.runOptions, signal: this.#signal, [LOOP_APPROVES]: true } as RunOptions;
      const env = resolveOptions(options, undefined);
      resolved = { env, source: isToolResolver(agent.tools) ? undefined : toolSource(agent.tools, env) };
      this.#resolved.set(agent, resolved);
    }
    const env: RunEnv = onReport === undefined ? { ...resolved.env, onNested } : { ...resolved.env, onNested, onReport };
    return new CheckedFeed(resolved.source ?? toolSource(agent.tools, env), env, host, this.#abort);
  }
}
