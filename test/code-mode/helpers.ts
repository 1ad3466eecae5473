import { z } from "zod";
import { askUser, defineTool, error, ok, runToolCalls, type RunResult, type Tool } from "../../src/index.js";
import type { ScriptStart } from "../../src/code-mode/sandbox-pool.js";

/**
 * Tools whose handler runs are counted, so a test can say a call never ran twice; `clarify`, kept
 * apart from `tools`, asks the user its `q` with `askOpts`.
 */
export function countedTools(askOpts: object = {}) {
  const runs: Record<string, number> = {};
  const count = (name: string): void => {
    runs[name] = (runs[name] ?? 0) + 1;
  };
  const add = defineTool({
    name: "add",
    description: "Add two numbers",
    schema: z.object({ a: z.number(), b: z.number() }),
    handler: ({ a, b }) => {
      count("add");
      return ok(a + b);
    },
  });
  const fail = defineTool({
    name: "fail",
    description: "Always fails",
    schema: z.object({ why: z.string() }),
    handler: ({ why }) => {
      count("fail");
      return error(why);
    },
  });
  const transfer = defineTool({
    name: "transfer",
    description: "Send money",
    schema: z.object({ to: z.string(), eur: z.number() }),
    needsApproval: true,
    handler: ({ to, eur }) => {
      count("transfer");
      return ok({ sent: eur, to });
    },
  });
  const clarify = defineTool({
    name: "clarify",
    description: "Ask the user",
    schema: z.object({ q: z.string() }),
    handler: ({ q }) => {
      count("clarify");
      return askUser(q, askOpts);
    },
  });
  return { runs, tools: [add, fail, transfer] as Tool[], clarify };
}

/** Run one script through a code-mode tool as a batch of one call. */
export function runScript(tool: Tool, script: string, id = "s1"): Promise<RunResult> {
  return runToolCalls([{ id, name: tool.name, arguments: { script } }], [tool], { toolTimeout: 20_000 });
}

/** A script's start as a sandbox thread reads it, with small limits: for tests that drive a pool or a thread directly. */
export function scriptStart(script: string): ScriptStart {
  const limits = {
    memoryBytes: 16 * 1024 * 1024,
    stackBytes: 512 * 1024,
    cpuMs: 1_000,
    maxCalls: 500,
    maxArgumentBytes: 1024,
    maxInFlightBytes: 65_536,
    maxResultBytes: 1024,
  };
  return { script, names: ["t"], limits, now: 0, seed: 1 };
}
