import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { approve, askUser, defineTool, error, ok, runToolCalls, type AskUserHalt, type Message, type SubagentState, type ToolCall } from "../../src/index.js";
import { codeMode } from "../../src/code-mode/index.js";

type Outcome = "ok" | "fail" | "timeout" | "approve" | "ask";
type Stmt =
  | { readonly kind: "call"; readonly k: number }
  | { readonly kind: "all"; readonly ks: number[] }
  | { readonly kind: "if"; readonly b: number; readonly yes: Stmt[]; readonly no: Stmt[] }
  | { readonly kind: "loop"; readonly n: number; readonly body: Stmt[] }
  | { readonly kind: "try"; readonly body: Stmt[] };

const { stmts } = fc.letrec<{ stmt: Stmt; stmts: Stmt[] }>((tie) => ({
  stmt: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.record({ kind: fc.constant("call" as const), k: fc.nat(20) }),
    fc.record({ kind: fc.constant("all" as const), ks: fc.array(fc.nat(20), { minLength: 2, maxLength: 4 }) }),
    fc.record({ kind: fc.constant("if" as const), b: fc.nat(1), yes: tie("stmts"), no: tie("stmts") }),
    fc.record({ kind: fc.constant("loop" as const), n: fc.integer({ min: 1, max: 3 }), body: tie("stmts") }),
    fc.record({ kind: fc.constant("try" as const), body: tie("stmts") }),
  ) as fc.Arbitrary<Stmt>,
  stmts: fc.array(tie("stmt") as fc.Arbitrary<Stmt>, { maxLength: 3 }),
}));

/** The script's text: calls whose arguments depend on what came before, branches, loops, try/catch. */
function render(body: readonly Stmt[]): string {
  return body
    .map((s) => {
      if (s.kind === "call") return `log.push(await tools.t({ k: ${s.k} + log.length }));`;
      // Calls at once, past maxInFlight: settled in the script's order whatever order they end in.
      if (s.kind === "all")
        return `log.push(...(await Promise.allSettled([${s.ks.join(", ")}].map((k) => tools.t({ k: k + log.length })))).map((r) => r.status === "fulfilled" ? r.value : "E:" + r.reason.reason));`;
      if (s.kind === "if") return `if (log.length % 2 === ${s.b}) { ${render(s.yes)} } else { ${render(s.no)} }`;
      if (s.kind === "loop") return `for (let i = 0; i < ${s.n}; i++) { ${render(s.body)} }`;
      return `try { ${render(s.body)} } catch (e) { log.push("E:" + e.reason); }`;
    })
    .join(" ");
}

const outcomeOf = (table: readonly Outcome[], k: number): Outcome => table[k % table.length] as Outcome;

/**
 * The nested calls' deadline, which a "timeout" outcome waits out. Real time: at 40 ms a call that
 * answers at once timed out on a loaded machine (a hunt, seed -116635973), and the script then
 * differed from its oracle. 300 ms leaves a wide margin and keeps the property under 20 s.
 */
const DEADLINE_MS = 300;

/** The script's nested-call limit (`limits.maxCalls`), which the oracle keeps as the sandbox does. */
const MAX_CALLS = 100;

/**
 * What the script returns when every approval is given: the same script run in plain JavaScript.
 * Past {@link MAX_CALLS} calls the sandbox ends the script whatever it catches, so the oracle
 * answers `too_many_calls` then, however the script goes on.
 */
async function oracle(script: string, table: readonly Outcome[]): Promise<{ ok: true; value: unknown } | { ok: false; reason: string }> {
  class ToolCallError extends Error {
    constructor(readonly reason: string) {
      super(reason);
    }
  }
  let calls = 0;
  const tools = {
    t: async ({ k }: { k: number }) => {
      if (++calls > MAX_CALLS) throw new ToolCallError("too_many_calls");
      const outcome = outcomeOf(table, k);
      if (outcome === "fail") throw new ToolCallError("tool_error");
      if (outcome === "timeout") throw new ToolCallError("timeout");
      if (outcome === "ask") return `a${k}`;
      return outcome === "approve" ? k * 3 : k * 2;
    },
  };
  const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...args: string[]) => (...args: unknown[]) => Promise<unknown>;
  let ended: { ok: true; value: unknown } | { ok: false; reason: string };
  try {
    ended = { ok: true, value: await new AsyncFunction("tools", "ToolCallError", script)(tools, ToolCallError) };
  } catch {
    ended = { ok: false, reason: "script_error" };
  }
  return calls > MAX_CALLS ? { ok: false, reason: "too_many_calls" } : ended;
}

describe("codeMode replay (property)", () => {
  let table: readonly Outcome[] = ["ok"];
  const runs = new Map<string, number>();
  const asked = new Set<string>();
  const t = defineTool({
    name: "t",
    description: "",
    schema: z.object({ k: z.number() }),
    needsApproval: ({ k }) => outcomeOf(table, k) === "approve",
    handler: ({ k }, ctx) => {
      runs.set(ctx.toolCall.id, (runs.get(ctx.toolCall.id) ?? 0) + 1);
      const outcome = outcomeOf(table, k);
      if (outcome === "ask") asked.add(ctx.toolCall.id);
      if (outcome === "fail") return error(`f${k}`);
      if (outcome === "timeout") return new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve(ok("late"))));
      if (outcome === "ask") return askUser(`q${k}`);
      return ok(outcome === "approve" ? k * 3 : k * 2);
    },
  });
  const code = codeMode({ tools: [t], run: { toolTimeout: DEADLINE_MS }, limits: { cpuMs: 5_000, maxInFlight: 2, maxCalls: MAX_CALLS } });
  afterAll(() => code.close());

  /** Runs the script of `body` to its end, resuming every halt, and checks it against the oracle. */
  async function check(body: Stmt[], outcomes: Outcome[]): Promise<void> {
    table = outcomes;
    runs.clear();
    asked.clear();
    const script = `const log = []; ${render(body)} return log;`;
    let call: ToolCall = { id: "p", name: "run_script", arguments: { script } };
    let rounds = 0;
    for (;;) {
      const result = await runToolCalls([call], [code.tool], { toolTimeout: 30_000 });
      const halt = result.halt as AskUserHalt | undefined;
      if (halt?.haltedReason !== "ask_user") {
        const expected = await oracle(script, outcomes);
        const message = result.messages[0];
        if (expected.ok) expect(JSON.parse(message?.content ?? "")).toEqual(expected.value);
        else expect(message?.content).toContain(`script ended (${expected.reason})`);
        break;
      }
      rounds++;
      // Each round answers at least one question, and a script makes at most MAX_CALLS calls.
      expect(rounds).toBeLessThanOrEqual(MAX_CALLS);
      const state = (halt.askUserOpts as { subagent: SubagentState }).subagent;
      const decisions: Message[] = ((state.metadata.pendingApprovals ?? []) as Parameters<typeof approve>[0][]).map((p) => approve(p));
      const question = state.metadata.pendingQuestion;
      if (typeof question === "string") decisions.push({ role: "user", content: question.replace("q", "a") });
      call = {
        id: `p-resume${rounds}`,
        name: "run_script",
        arguments: { script },
        metadata: { "toolrx.subagentResume": { ...state, messages: decisions } },
      };
    }
    // A call that asked alongside an earlier question runs again to ask its own: only those may run twice.
    for (const [id, count] of runs) if (!asked.has(id)) expect([id, count]).toEqual([id, 1]);
  }

  it("answers every nested call once, replays approvals and questions without running completed calls again, and always ends", async () => {
    const outcome = fc.constantFrom<Outcome>("ok", "ok", "ok", "fail", "timeout", "approve", "ask");
    await fc.assert(fc.asyncProperty(stmts, fc.array(outcome, { minLength: 1, maxLength: 8 }), check), { numRuns: 60 });
  }, 120_000);

  // Seed -1880987285 (npm run hunt): 41 calls that each ask the user take 41 rounds, one question
  // answered a round; the property bounded the rounds at 40, below what maxCalls allows.
  it("resumes a script whose every call asks the user as many times as it has calls", async () => {
    const all: Stmt = { kind: "all", ks: [0, 0, 0, 0] };
    const inner: Stmt = { kind: "loop", n: 3, body: [{ kind: "call", k: 0 }, all, { kind: "call", k: 0 }] };
    const body: Stmt[] = [
      { kind: "call", k: 0 },
      { kind: "loop", n: 1, body: [{ kind: "loop", n: 2, body: [{ kind: "call", k: 0 }, inner, { kind: "call", k: 0 }] }] },
    ];
    await check(body, ["ask"]);
  }, 60_000);

  // Seed 870442464 (under `npm run mutate`'s dry run): loops nested three deep make 130 calls; the
  // sandbox ends the script at its 101st, and the oracle did not know the limit.
  it("ends a script past maxCalls with too_many_calls, as its oracle does", async () => {
    const calls = (n: number): Stmt[] => Array.from({ length: n }, () => ({ kind: "call", k: 0 }));
    const inner: Stmt = { kind: "loop", n: 3, body: [...calls(1), { kind: "if", b: 0, yes: [], no: [{ kind: "loop", n: 3, body: calls(3) }, ...calls(2)] }] };
    const body: Stmt[] = [{ kind: "loop", n: 1, body: [{ kind: "loop", n: 3, body: [inner] }] }];
    expect(await oracle(`const log = []; ${render(body)} return log;`, ["ok"])).toEqual({ ok: false, reason: "too_many_calls" });
    await check(body, ["ok"]);
  }, 60_000);
});
