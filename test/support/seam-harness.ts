/**
 * The seam property's world (issue 41): one agent composing tools in-process, on a worker thread
 * and on BullMQ, `needsApproval` with a ledger and a token lifetime, a repair, hooks and
 * questions, journaled, whose process is killed at any step and started again from the store.
 * A simulated process counts its steps (each journal append, each ledger spend, each call a hook
 * lets start) and dies at the one it is given: before the step (it never happens) or after it
 * (it happens, and the process never hears back; a call's handler starts and the process dies
 * under it). A dead process reaches neither the store nor the ledger again. The host restarts
 * with the same input after a kill, and answers halts as a user would.
 */
import { appendFileSync } from "node:fs";
import { VirtualTimeScheduler } from "rxjs";
import { expect } from "vitest";
import { z } from "zod";
import {
  approve,
  defineTool,
  ok,
  streamAgent,
  type AgentEvent,
  type ApprovalLedger,
  type JournalStore,
  type Message,
  type ModelEvent,
  type ModelRequest,
  type PendingApproval,
  type Tool,
  type ToolExecutor,
} from "../../src/index.js";
import { chaosTools } from "./chaos-agent.js";
import { checkSeamFinal } from "./seam-final.js";

export const SEAM_KINDS = ["local", "idempotent", "approve", "ask", "repair", "thread", "remote", "routed", "code"] as const;
export type SeamKind = (typeof SEAM_KINDS)[number];
export interface SeamCall {
  readonly kind: SeamKind;
  readonly n: number;
}
/** Where a life dies: its `step`-th step, `after` it happened or before; `late`: the clock jumps past the tokens' lifetime first. */
export interface SeamKill {
  readonly step: number;
  readonly after: boolean;
  readonly late: boolean;
}
export interface SeamScenario {
  readonly plan: readonly (readonly SeamCall[])[];
  readonly kills: readonly SeamKill[];
}

/** What a test file gives the property: the stores, its executors' tools, and where effects are written. */
export interface SeamWorld {
  readonly store: JournalStore;
  readonly ledger: ApprovalLedger;
  /** The file every handler appends `<kind> <n>` to as its effect, wherever it runs. */
  readonly effects: string;
  /** The tools beyond the in-process ones (thread, remote, routed), as the agent holds them. */
  readonly tools: readonly Tool[];
  /** The run's executors for conversation `key` (a BullMQ executor's job ids derive from it). */
  executors(key: string): { toolExecutor?: ToolExecutor; toolExecutors?: Record<string, ToolExecutor> };
  /** Whether a dead run is unsubscribed (in memory), or left as a killed process leaves its remote jobs (no cancel). */
  readonly unsubscribeDead: boolean;
}

/** What the property did, for its report. */
export interface SeamStats {
  scenarios: number;
  lives: number;
  kills: number;
  byStep: Record<string, number>;
  tokenExpired: number;
}

const secret = "seam secret, kept on the server";
const TTL = 60_000;
const never = <T>(): Promise<T> => new Promise<T>(() => {});
const schema = z.object({ n: z.number() });

/** The in-process tools: each appends its effect to `effects` as it starts. */
export function inProcessTools(effects: string): Tool[] {
  const effect =
    (kind: string) =>
    ({ n }: { n: number }) => {
      appendFileSync(effects, `${kind} ${n}\n`);
      return ok(`${kind} ${n} done`);
    };
  // The model sends its `n` as a string: `repairToolCall` mends it before the handler runs.
  return [...chaosTools(effects, effect), defineTool({ name: "repair", description: "", schema, handler: effect("repair") })];
}

/** A model like OpenAI's (random call ids per request): script turn k asks for `plan[k]`, then it is done. */
function seamModel(plan: SeamScenario["plan"]) {
  return (request: ModelRequest): ModelEvent[] => {
    const k = request.messages.filter((m) => m.role === "assistant" && m.content.startsWith("turn ")).length;
    const calls = plan[k];
    if (calls === undefined) return [{ type: "text_delta", text: `done after ${k} turns` }];
    return [
      { type: "text_delta", text: `turn ${k}` },
      ...calls.map(
        ({ kind, n }): ModelEvent => ({
          type: "tool_call",
          call: { id: `call_${Math.random().toString(36).slice(2, 10)}`, ...callOf(kind, n) },
        }),
      ),
    ];
  };
}

/** The model's call for one planned call: a code-mode call is a script calling the nested tool `code`. */
function callOf(kind: SeamKind, n: number): { name: string; arguments: Record<string, unknown> } {
  if (kind === "code") return { name: "run_script", arguments: { script: `await tools.code({ n: ${n} }); return "code ${n} done";` } };
  return { name: kind, arguments: { n: kind === "repair" ? String(n) : n } };
}

/** One process's view of the stores: counted steps, the kill, and nothing reaching them after it. */
function steppingProcess(world: SeamWorld, kill: SeamKill | undefined, onKill: (label: string) => void) {
  let steps = 0;
  let dead = false;
  const step = <T>(label: string, perform: () => T, hearsBack: boolean): T | Promise<T> => {
    if (dead) return never();
    const at = steps++;
    if (kill === undefined || at !== kill.step) return perform();
    const result = kill.after ? perform() : undefined;
    dead = true;
    onKill(`${label}/${kill.after ? "after" : "before"}`);
    return kill.after && hearsBack ? (result as T) : never();
  };
  const quiet =
    <A extends unknown[], R>(f: (...args: A) => R) =>
    (...args: A): R | Promise<R> =>
      dead ? never() : f(...args);
  const { store, ledger } = world;
  return {
    store: {
      acquire: quiet(store.acquire.bind(store)),
      append: (key, owner, entries) => step(`append:${entries.map((e) => e.type).join()}`, () => store.append(key, owner, entries), false),
      renew: quiet(store.renew.bind(store)),
      release: quiet(store.release.bind(store)),
    } as JournalStore,
    ledger: { consume: (key: string, ttlMs?: number) => step("spend", () => ledger.consume(key, ttlMs), false) } as ApprovalLedger,
    /** The run's hook before each call starts: a step whose `after` kill lets the handler start in the dying process. */
    beforeCall: () => step("call", () => undefined, true),
  };
}

type Halted = Extract<AgentEvent, { type: "agent_halted" }>;

/** One life of the agent process: it ends (`halted`) or is killed. */
function life(
  world: SeamWorld,
  key: string,
  plan: SeamScenario["plan"],
  messages: readonly Message[],
  kill: SeamKill | undefined,
  scheduler: VirtualTimeScheduler,
  stats: SeamStats,
) {
  return new Promise<Halted | undefined>((resolve) => {
    let unsubscribe = () => {};
    const proc = steppingProcess(world, kill, (label) => {
      stats.kills++;
      stats.byStep[label] = (stats.byStep[label] ?? 0) + 1;
      resolve(undefined);
      if (world.unsubscribeDead) setTimeout(() => unsubscribe(), 0);
    });
    const subscription = streamAgent({
      model: seamModel(plan),
      tools: [...inProcessTools(world.effects), ...world.tools],
      messages,
      ...world.executors(key),
      hooks: [{ before: () => proc.beforeCall() }],
      repairToolCall: ({ call }) => ({ n: Number(call.arguments.n) }),
      approvalSecret: secret,
      approvalTokenTtl: TTL,
      approvalLedger: proc.ledger,
      scheduler,
      journal: { store: proc.store, conversationKey: key, owner: "agent", leaseMs: 60_000 },
    }).subscribe((e) => {
      if (e.type === "agent_halted") resolve(e);
    });
    unsubscribe = () => subscription.unsubscribe();
  });
}

/** Run one scenario to its end, restarting after each kill, and check the invariants. */
export async function runSeamScenario(world: SeamWorld, generated: SeamScenario, key: string, stats: SeamStats): Promise<void> {
  stats.scenarios++;
  // Call numbers unique across scenarios: a killed process of an earlier one (shrinking replays
  // them) may still finish a call, and must not count against this one.
  const base = stats.scenarios * 1_000;
  const scenario = { ...generated, plan: generated.plan.map((turn) => turn.map((c) => ({ ...c, n: c.n + base }))) };
  const scheduler = new VirtualTimeScheduler();
  const kills = scenario.kills.slice();
  let messages: Message[] = [{ role: "user", content: "go" }];
  let halted: Halted | undefined;
  for (let lives = 0; lives < 60; lives++) {
    const kill = kills.shift();
    if (kill?.late) scheduler.frame += TTL + 10_000;
    stats.lives++;
    const ended = await life(world, key, scenario.plan, messages, kill, scheduler, stats);
    if (ended === undefined) continue; // killed: the host starts it again with the same input
    halted = ended;
    const { haltedReason, metadata } = ended as { haltedReason: string; metadata: Record<string, unknown> };
    if (haltedReason === "ask_user") messages = [...ended.messages, { role: "user", content: "yes" }];
    else if (haltedReason === "approval_required") messages = [...ended.messages, ...(metadata.pendingApprovals as PendingApproval[]).map((p) => approve(p))];
    else if (haltedReason === "error" && (metadata.error as { reason?: unknown }).reason === "token_expired") {
      // A documented, closed refusal (nothing ran): the host drops the stale decisions and asks again.
      stats.tokenExpired++;
      messages = dropTrailingDecisions(ended.messages);
    } else break;
  }
  expect(halted?.haltedReason, JSON.stringify((halted?.metadata as { error?: unknown } | undefined)?.error ?? halted?.metadata)).toBe("completed");
  checkSeamFinal(world, scenario, halted?.messages ?? []);
}

function dropTrailingDecisions(messages: readonly Message[]): Message[] {
  let end = messages.length;
  while (end > 0 && messages[end - 1]?.role === "approval") end--;
  return messages.slice(0, end);
}
