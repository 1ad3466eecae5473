import type { HandlerContext } from "../tool/handler-context.js";
import { error, isThenable, ok, type HandlerResult } from "../tool/results.js";
import type { ToolCall } from "../tool/tool-call.js";
import { describe, isPlainRecord, messageOf as errorMessageOf, withoutFrames } from "../util/safe.js";
import { reporterOf } from "./recipe-step.js";

/** One sub-call of a recipe. */
export interface RecipeStep {
  /** The tool to resolve; sub-steps are resolved directly, never through another recipe. */
  tool: string;
  /** Names the step in results and reports; default: the tool name. */
  label?: string;
  /** Fixed arguments, or a function of the serial context (tool name → its latest content). */
  arguments: Record<string, unknown> | ((serialContext: Readonly<Record<string, string>>) => Record<string, unknown>);
}

/** What a recipe's steps produced, in plan order. */
export interface RecipeResults {
  serialResults: { label: string; tool: string; content: string }[];
  parallelResults: { label: string; tool: string; content: string }[];
  errors: { label: string; tool: string; error: string }[];
}

/** A recipe's plan for one call. */
export interface RecipePlan {
  /** Run in order; later steps may read earlier results through the serial context. */
  serial?: RecipeStep[];
  /** Run concurrently after the serial steps. */
  parallel?: RecipeStep[];
  /** Turns the results into the call's content; default: {@link composeRecipeReport}. */
  compose?: (results: RecipeResults) => string;
}

/** A recipe: the call's arguments in, a plan out. */
export type Recipe = (args: Record<string, unknown>) => RecipePlan;

/** What a sub-step's resolver answers. */
export type ResolveAnswer = { ok: string } | { error: string };

/** What a recipe run needs from the batch. */
export interface RecipeEnv {
  readonly resolve: (call: ToolCall, ctx: HandlerContext) => ResolveAnswer | PromiseLike<ResolveAnswer>;
  readonly concurrency: number;
}

/**
 * Run `recipe` for `call`: serial steps in order, then parallel ones within the concurrency
 * bound, then `compose`. A failing step is recorded and the rest still run; a recipe that
 * throws or plans nonsense fails the call with a message saying why. Nothing new starts once
 * the parent's signal aborts (its deadline, or cancellation).
 */
export async function runRecipe(recipe: Recipe, call: ToolCall, ctx: HandlerContext, env: RecipeEnv): Promise<HandlerResult> {
  const failed = (why: string) => error(new Error(`recipe for tool ${call.name} failed: ${why}`));
  let plan: unknown;
  try {
    plan = recipe(call.arguments);
    if (isThenable(plan)) plan = await plan;
  } catch (e) {
    return failed(messageOf(e));
  }
  const problem = planProblem(plan);
  if (problem !== undefined) return failed(problem);
  const { serial = [], parallel = [], compose = composeRecipeReport } = plan as RecipePlan;

  const signal = ctx.signal;
  // Sub-steps go to the call's side channel (`onCallReport`), which drops them once the call is answered.
  const report = reporterOf(ctx);
  const results: RecipeResults = { serialResults: [], parallelResults: [], errors: [] };
  const serialContext: Record<string, string> = {};

  const runStep = async (step: RecipeStep, phase: "serial" | "parallel", index: number) => {
    const label = step.label ?? step.tool;
    const stepCallId = `${call.id}/${phase}/${index}`;
    const base = { phase, step: index, label, tool: step.tool, stepCallId };
    const outcome = await resolveStep(step, stepCallId, { ...serialContext }, ctx, env, (args) =>
      report?.({ type: "recipe_step_started", ...base, arguments: args }),
    );
    if ("content" in outcome) {
      report?.({ type: "recipe_step_succeeded", ...base, content: outcome.content });
      return { label, tool: step.tool, content: outcome.content };
    }
    report?.({ type: "recipe_step_failed", ...base, error: outcome.error });
    results.errors.push({ label, tool: step.tool, error: outcome.error });
    return undefined;
  };

  for (const [i, step] of serial.entries()) {
    if (signal.aborted) break;
    const done = await runStep(step, "serial", i);
    if (done !== undefined) {
      results.serialResults.push(done);
      serialContext[step.tool] = done.content;
    }
  }

  const parallelDone: ({ label: string; tool: string; content: string } | undefined)[] = [];
  let next = 0;
  const worker = async () => {
    while (next < parallel.length && !signal.aborted) {
      const i = next++;
      parallelDone[i] = await runStep(parallel[i] as RecipeStep, "parallel", i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(env.concurrency, parallel.length) }, worker));
  for (const done of parallelDone) if (done !== undefined) results.parallelResults.push(done);

  if (signal.aborted) return error(signal.reason);
  let content: unknown;
  try {
    content = compose(results);
  } catch (e) {
    return failed(`compose threw: ${messageOf(e)}`);
  }
  if (typeof content !== "string") return failed(`compose returned ${describe(content)} instead of a string`);
  return ok(content);
}

async function resolveStep(
  step: RecipeStep,
  toolCallId: string,
  serialContext: Record<string, string>,
  ctx: HandlerContext,
  env: RecipeEnv,
  started: (args: Record<string, unknown>) => void,
): Promise<{ content: string } | { error: string }> {
  let args: unknown;
  try {
    args = typeof step.arguments === "function" ? step.arguments(Object.freeze(serialContext)) : step.arguments;
  } catch (e) {
    return { error: `arguments of step failed: ${messageOf(e)}` };
  }
  if (!isPlainRecord(args)) return { error: `arguments of step must be an object, got ${describe(args)}` };
  started(args);
  const subCall: ToolCall = { id: toolCallId, name: step.tool, arguments: args };
  const subCtx: HandlerContext = {
    context: ctx.context,
    sessionId: ctx.sessionId,
    requestId: ctx.requestId,
    engine: ctx.engine,
    toolCall: subCall,
    signal: ctx.signal,
    // A sub-step's progress is its parent call's progress, its questions the parent call's.
    progress: (update) => ctx.progress(update),
    log: (entry) => ctx.log(entry),
    askUser: ctx.askUser.bind(ctx),
    sample: (request) => ctx.sample(request),
  };
  let answer: unknown;
  try {
    answer = await env.resolve(subCall, subCtx);
  } catch (e) {
    return { error: messageOf(e) };
  }
  return answerOf(answer);
}

/** A resolver's answer as content or error text; anything else is reported, not trusted. */
export function answerOf(answer: unknown): { content: string } | { error: string } {
  if (isPlainRecord(answer)) {
    if (typeof answer.ok === "string") return { content: answer.ok };
    if (typeof answer.error === "string") return { error: answer.error };
  }
  return { error: `resolver answered ${describe(answer)}; expected { ok: string } or { error: string }` };
}

function planProblem(plan: unknown): string | undefined {
  if (!isPlainRecord(plan)) return `the plan must be an object, got ${describe(plan)}`;
  for (const phase of ["serial", "parallel"] as const) {
    const steps = plan[phase];
    if (steps === undefined) continue;
    if (!Array.isArray(steps)) return `plan.${phase} must be an array of steps, got ${describe(steps)}`;
    for (const [i, step] of steps.entries()) {
      const where = `plan.${phase}[${i}]`;
      if (!isPlainRecord(step)) return `${where} must be a step object, got ${describe(step)}`;
      if (typeof step.tool !== "string" || step.tool === "") return `${where}.tool must be a non-empty string, got ${describe(step.tool)}`;
      if (step.label !== undefined && typeof step.label !== "string") return `${where}.label must be a string, got ${describe(step.label)}`;
      if (!isPlainRecord(step.arguments) && typeof step.arguments !== "function") {
        return `${where}.arguments must be an object or a function of the serial context, got ${describe(step.arguments)}`;
      }
    }
  }
  if (plan.compose !== undefined && typeof plan.compose !== "function") return `plan.compose must be a function, got ${describe(plan.compose)}`;
  return undefined;
}

/**
 * The default report of a recipe, in markdown: `## Sequential Results` with a
 * `### Step i: <label>` section per serial result, `## Additional Results` with a
 * `### <label>` section per parallel result, `## Errors` with a `- **<label>**: <error>` line
 * per failure; sections joined by blank lines, `No results produced.` when there is nothing.
 *
 * @example
 * composeRecipeReport({ serialResults: [{ label: "search", tool: "search", content: "3 hits" }], parallelResults: [], errors: [] });
 * // "## Sequential Results\n\n### Step 1: search\n3 hits"
 */
export function composeRecipeReport(results: RecipeResults): string {
  const sections: string[] = [];
  if (results.serialResults.length > 0) {
    sections.push(["## Sequential Results", ...results.serialResults.map((r, i) => `### Step ${i + 1}: ${r.label}\n${r.content}`)].join("\n\n"));
  }
  if (results.parallelResults.length > 0) {
    sections.push(["## Additional Results", ...results.parallelResults.map((r) => `### ${r.label}\n${r.content}`)].join("\n\n"));
  }
  if (results.errors.length > 0) {
    sections.push(`## Errors\n\n${results.errors.map((e) => `- **${e.label}**: ${e.error}`).join("\n")}`);
  }
  return sections.length === 0 ? "No results produced." : sections.join("\n\n");
}

/** What a recipe, step or resolver threw, as one line for the report: never a stack. */
function messageOf(e: unknown): string {
  return typeof e === "string" ? withoutFrames(e) : (errorMessageOf(e) ?? describe(e));
}
