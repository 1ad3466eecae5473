import type { CallReport, NestedEventReport } from "../../run/results/call-report.js";
import { CheckedFeed, type FeedHost } from "../../run/checked-feed.js";
import { SharedAbort } from "../../run/pool/index.js";
import { LOOP_APPROVES, resolveOptions, type RunEnv } from "../../run/options/options.js";
import type { RunOptions } from "../../run/options/run-options.js";
import { toolSource, type ToolSource } from "../../run/options/tool-source.js";
import { isToolResolver } from "../../resolve/resolver.js";
import type { AgentEnv } from "../options/index.js";

/** What a turn's runner tells the batch that owns it of a run nested in a call (a subagent's events). */
export interface NestedHost {
  nested(report: NestedEventReport): void;
}

/** A run's runner options and tool index for one tool set, resolved once. */
interface Resolved {
  readonly env: RunEnv;
  /**
   * `env` as every turn of a quiet run without a journal's handles gets it: made once, its
   * `onNested` the runner of the turn that runs (see {@link TurnRunners.feed}).
   */
  shared: RunEnv | undefined;
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
  /** The runner of the turn that runs, which a shared env's `onNested` reaches. */
  #nested: NestedHost | undefined;

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
   * has checked already: each is pushed into it, its events go to `host`, and the events of runs
   * nested in a call to `nested`. `onReport`, when given, replaces the host's `onCallReport` (a
   * watched run turns reports into agent events, numbered with their turn).
   *
   * Without `onReport`, every turn shares one env, made once per run: its `onNested` goes to the
   * runner of the turn that runs. A call only reports a nested run's events while it runs
   * (`alive`), and a turn ends only once its runner completed, every call answered, so none of
   * an earlier turn's calls can reach a later turn's runner. A late settlement is reported
   * through `onReport` alone, which is the host's own listener here and knows no turn; a watched
   * run's `onReport` numbers reports with the turn, so it keeps an env per turn.
   */
  feed(agent: AgentEnv, host: FeedHost, nested: NestedHost, onReport: ((report: CallReport) => void) | undefined): CheckedFeed {
    let resolved = this.#resolved.get(agent);
    if (resolved === undefined) {
      const options = { ...agent.runOptions, signal: this.#signal, [LOOP_APPROVES]: true } as RunOptions;
      const env = resolveOptions(options, undefined);
      resolved = { env, shared: undefined, source: isToolResolver(agent.tools) ? undefined : toolSource(agent.tools, env) };
      this.#resolved.set(agent, resolved);
    }
    let env: RunEnv;
    if (onReport === undefined) {
      this.#nested = nested;
      env = resolved.shared ??= this.#shared(resolved.env);
    } else env = { ...resolved.env, onNested: (report) => nested.nested(report), onReport };
    return new CheckedFeed(resolved.source ?? toolSource(agent.tools, env), env, host, this.#abort);
  }

  /** A method of its own: made in {@link feed}, its closure would share feed's context, and keep the first turn's runner for the run. */
  #shared(env: RunEnv): RunEnv {
    return { ...env, onNested: (report) => this.#nested?.nested(report) };
  }
}
