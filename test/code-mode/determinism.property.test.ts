import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { approve, defineTool, ok, runToolCalls, type AskUserHalt, type PendingApproval, type SubagentState, type ToolCall } from "../../src/index.js";
import { codeMode } from "../../src/code-mode/index.js";
import { huntRuns } from "../support/hunt-runs.js";

/** Every way a script could read the time, chance or the host's garbage collector. */
const OBSERVATIONS = [
  "Date.now()",
  "new Date().getTime()",
  "new Date.prototype.constructor().getTime()",
  "new (Object.getPrototypeOf(new Date(0)).constructor)().getTime()",
  "new (class extends Date {})().getTime()",
  "Reflect.construct(Date, []).valueOf()",
  "Date()",
  "new Date().toISOString()",
  "Math.random()",
  "[Math.random(), Math.random(), Math.random()]",
  "Array.from({ length: 5 }, () => Math.floor(Math.random() * 100))",
  "[typeof WeakRef, typeof FinalizationRegistry, typeof performance, typeof Intl]",
  "await tools.echo({ v: 1 })",
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("codeMode determinism (property)", () => {
  const gate = defineTool({ name: "gate", description: "", schema: z.object({ obs: z.array(z.unknown()) }), needsApproval: true, handler: () => ok("open") });
  const echo = defineTool({ name: "echo", description: "", schema: z.object({ v: z.number() }), handler: ({ v }) => ok(v) });
  const first = codeMode({ tools: [gate, echo] });
  const second = codeMode({ tools: [gate, echo] });
  afterAll(() => Promise.all([first.close(), second.close()]));

  it("gives a script the same observations on every replay, in any thread, however late", async () => {
    const exprs = fc.array(fc.constantFrom(...OBSERVATIONS), { minLength: 1, maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(exprs, exprs, async (before, after) => {
        const script = `const obs = [${before.join(", ")}]; await tools.gate({ obs }); return { obs, after: [${after.join(", ")}] };`;
        const halted = await runToolCalls([{ id: "d", name: "run_script", arguments: { script } }], [first.tool]);
        const halt = halted.halt as AskUserHalt;
        const state = (halt.askUserOpts as { subagent: SubagentState }).subagent;
        const pending = state.metadata.pendingApprovals as PendingApproval[];
        const resume: ToolCall = {
          id: "d-resume1",
          name: "run_script",
          arguments: { script },
          metadata: { "toolrx.subagentResume": { ...state, messages: pending.map((p) => approve(p)) } },
        };
        // Late enough that a live clock would have moved.
        await sleep(5);
        const a = await runToolCalls([resume], [first.tool]);
        await sleep(5);
        const b = await runToolCalls([resume], [second.tool]);
        const value = JSON.parse(a.messages[0]?.content ?? "null") as { obs: unknown[] };
        expect(value.obs).toEqual(pending[0]?.arguments.obs);
        expect(b.messages[0]?.content).toBe(a.messages[0]?.content);
      }),
      { numRuns: huntRuns(15, 60) },
    );
  }, 120_000);
});
