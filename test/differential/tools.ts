import { z } from "zod";
import { defineTool, type CallHook, type HandlerResult, type Tool, type ToolControl } from "../../src/index.js";
import type { WorkerPool } from "../../src/node/index.js";
import { behave, record } from "./fixtures/behave.mjs";

/** The module every side loads the handler from (a worker thread names it by URL). */
export const behaveModule = new URL("./fixtures/behave.mjs", import.meta.url);

/** A call's deadline for the `deadline` tool: far above a job's round trip on a loaded machine, far below its long wait. */
export const DEADLINE_MS = 1_500;
/** The `budget` tool's output budget, in characters. */
export const BUDGET = 80;

/**
 * A hook that counts its runs in the session's log (a hook that ran twice shows as two lines) and
 * leaves a mark on an `ok` result; it refuses a call whose arguments say `refuse`, and runs the
 * handler on the steps of `rewrite` when the arguments have them.
 */
const marking: CallHook = {
  before: (args, ctx) => {
    record("before", ctx);
    if (args.refuse === true) return { type: "error", reason: "refused by a hook" };
    return Array.isArray(args.rewrite) ? { arguments: { steps: args.rewrite } } : undefined;
  },
  after: (result: HandlerResult, _args, ctx) => {
    record("after", ctx);
    return result.type === "ok" ? { type: "ok", value: { hooked: result.value } } : undefined;
  },
};

/** One tool per control configuration: generated calls pick among them by name. */
const SPECS: readonly { name: string; control?: ToolControl; hooks?: readonly CallHook[] }[] = [
  { name: "plain" },
  { name: "retried", control: { idempotent: true, retry: { attempts: 3, delay: 10, jitter: false } } },
  // Hooked too: a handler that settles after its deadline goes through its after-hooks, wherever it ran.
  { name: "deadline", control: { timeout: DEADLINE_MS }, hooks: [marking] },
  { name: "budget", control: { outputBudget: BUDGET } },
  { name: "hooked", hooks: [marking] },
];

export const TOOL_NAMES = ["plain", "retried", "deadline", "budget", "hooked"] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

const step = z.object({ do: z.string() }).loose();
const schema = z.object({ steps: z.array(step), refuse: z.boolean().optional(), rewrite: z.array(step).optional() });

/** The tools with their handler in this thread: for the default executor and a BullMQ worker. */
export function inProcessTools(): Tool[] {
  return SPECS.map((spec) => defineTool({ ...spec, description: `behaves as told (${spec.name})`, schema, handler: behave }) as unknown as Tool);
}

/** The same tools, their handler in a thread of `pool`. */
export function isolatedTools(pool: WorkerPool): Tool[] {
  return SPECS.map(
    (spec) => pool.tool({ ...spec, description: `behaves as told (${spec.name})`, schema, module: behaveModule, export: "behave" }) as unknown as Tool,
  );
}
