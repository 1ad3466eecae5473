import type { ChildProcess } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { approve, type Message, type PendingApproval } from "../../src/index.js";
import { anthropic, checkConversation, openai } from "../../src/providers/index.js";

/** What an agent process of a chaos property writes when its run ends. */
export interface ChaosEnding {
  haltedReason: string;
  metadata: Record<string, unknown>;
  messages: Message[];
}

/** How many processes a property started and how many of them were SIGKILLed. */
export interface ChaosCounts {
  starts: number;
  kills: number;
}

/**
 * Runs one conversation's lives: starts the agent process with the next kill point, starts it
 * again after each SIGKILL, answers its questions ("yes") and approves what it puts up for
 * approval, until the run ends otherwise. The durable chaos properties (on Redis and on Postgres)
 * share it, so both drive the agent as a host would.
 */
export async function liveUntilEnd<Kill>(
  start: (messages: Message[], kill: Kill | null) => ChildProcess,
  kills: readonly Kill[],
  out: string,
  counts: ChaosCounts,
): Promise<ChaosEnding | undefined> {
  const pending = kills.slice();
  let messages: Message[] = [{ role: "user", content: "go" }];
  let result: ChaosEnding | undefined;
  for (let life = 0; life < 20; life++) {
    counts.starts++;
    const child = start(messages, pending.shift() ?? null);
    const [code, signal] = await new Promise<[number | null, string | null]>((resolve) => child.once("exit", (c, s) => resolve([c, s])));
    if (signal === "SIGKILL") {
      counts.kills++;
      continue;
    }
    expect(code).toBe(0);
    result = JSON.parse(readFileSync(out, "utf8")) as ChaosEnding;
    rmSync(out);
    if (result.haltedReason === "ask_user") messages = [...result.messages, { role: "user", content: "yes" }];
    else if (result.haltedReason === "approval_required")
      messages = [...result.messages, ...(result.metadata.pendingApprovals as PendingApproval[]).map((p) => approve(p))];
    else break;
  }
  return result;
}

/**
 * The durable agent's promises after its last life: it completed as an uninterrupted run would,
 * every non-idempotent handler ran at most once (`ranOf` counts a call's lines in the effects log),
 * every call is answered exactly once, the conversation is one each provider accepts, and no
 * recorded turn was asked of the model again (the violations file is empty).
 */
export function expectDurablePromises(
  result: ChaosEnding | undefined,
  plan: readonly (readonly { readonly n: number; readonly kind: string }[])[],
  ranOf: (call: { readonly n: number; readonly kind: string }) => number,
  violations: string,
): void {
  expect(result?.haltedReason, JSON.stringify(result?.metadata)).toBe("completed");
  const final = result?.messages ?? [];
  expect(final.at(-1)).toEqual({ role: "assistant", content: `done after ${plan.length} turns` });
  for (const c of plan.flat()) if (c.kind !== "idempotent") expect(ranOf(c), `${c.kind} ${c.n}`).toBeLessThanOrEqual(1);
  const ids = final.flatMap((m) => (m.role === "assistant" ? (m.toolCalls ?? []).map((c) => c.id) : []));
  const answers = final.flatMap((m) => (m.role === "tool" ? [m.toolCallId] : []));
  expect(answers.slice().sort()).toEqual(ids.slice().sort());
  expect(checkConversation(openai.toChatMessages(final), "openai-chat")).toEqual([]);
  expect(checkConversation(openai.toResponsesInput(final), "openai-responses")).toEqual([]);
  expect(checkConversation(anthropic.toMessages(final).messages, "anthropic")).toEqual([]);
  expect(existsSync(violations) ? readFileSync(violations, "utf8") : "").toBe("");
}

/** What the durable chaos properties count over their scenarios, for their closing report. */
export class ChaosTally {
  scenarios = 0;
  starts = 0;
  kills = 0;
  #nextN = 0;

  /**
   * One scenario of a durable chaos property: numbers the plan's calls uniquely across scenarios
   * (shrinking replays them, and effects are counted per call), lives the conversation out with
   * `start` (given the scenario's key, its output and violations files, and the numbered plan) and
   * holds the agent to {@link expectDurablePromises} against the effects log.
   */
  async scenario<Kind extends string, Kill>(
    scratch: { readonly dir: string; readonly effects: string; readonly prefix: string },
    kinds: readonly (readonly { readonly kind: Kind }[])[],
    kills: readonly Kill[],
    start: (
      files: { key: string; out: string; violations: string; plan: { n: number; kind: Kind }[][] },
      messages: Message[],
      kill: Kill | null,
    ) => ChildProcess,
  ): Promise<void> {
    this.scenarios++;
    this.#nextN += 100;
    let n = this.#nextN;
    const plan = kinds.map((turn) => turn.map((c) => ({ ...c, n: n++ })));
    const key = `${scratch.prefix}-${this.scenarios}-${Date.now()}`;
    const files = { key, out: join(scratch.dir, `${key}.json`), violations: join(scratch.dir, `${key}.violations`), plan };
    const counts = { starts: 0, kills: 0 };
    const result = await liveUntilEnd((messages, kill) => start(files, messages, kill), kills, files.out, counts);
    this.starts += counts.starts;
    this.kills += counts.kills;
    const lines = readFileSync(scratch.effects, "utf8").split("\n");
    expectDurablePromises(result, plan, (c) => lines.filter((l) => l === `${c.kind} ${c.n}`).length, files.violations);
  }

  toString(): string {
    return `${this.scenarios} scenarios, ${this.starts} agent processes started, ${this.kills} SIGKILLed`;
  }
}
