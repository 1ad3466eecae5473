import { addUsage, type TokenUsage, type UsageSource } from "../model/index.js";

/** The tokens one run's model calls and subagents reported, summed, and where they went. */
export class UsageTally {
  /** Undefined until one arrives. */
  #usage: TokenUsage | undefined;
  /** The model's own share of `#usage`. */
  #own: TokenUsage | undefined;
  readonly #subagents: Extract<UsageSource, { source: "subagent" }>[] = [];

  /** The model reported the tokens of one of its calls. */
  model(usage: TokenUsage): void {
    this.#usage = addUsage(this.#usage, usage);
    this.#own = addUsage(this.#own, usage);
  }

  /** A subagent run inside a call of this run ended, and reported tokens. */
  subagent(share: Extract<UsageSource, { source: "subagent" }>): void {
    this.#usage = addUsage(this.#usage, share.usage);
    this.#subagents.push(share);
  }

  /** Put `usage` and `usageBreakdown` on the run's `agent_halted`, when anything was reported. */
  writeTo(event: Record<string, unknown>): void {
    if (this.#usage !== undefined) {
      event.usage = { ...this.#usage };
      const own: UsageSource[] = this.#own === undefined ? [] : [{ source: "model", usage: { ...this.#own } }];
      event.usageBreakdown = [...own, ...this.#subagents];
    }
  }
}
