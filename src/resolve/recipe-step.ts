import type { HandlerContext } from "../tool/handler-context.js";

/** Where a recipe sub-step sits in its parent call's plan. */
export interface RecipeStepFields {
  readonly phase: "serial" | "parallel";
  /** Position of the step in its phase, from 0. */
  readonly step: number;
  readonly label: string;
  readonly tool: string;
  /** The sub-call's own id: `<parent id>/<phase>/<step>`. */
  readonly stepCallId: string;
}

/** A recipe sub-step report without its parent call's identity, which the runner adds. */
export type RecipeStepBody = RecipeStepFields &
  (
    | { readonly type: "recipe_step_started"; readonly arguments: Record<string, unknown> }
    | { readonly type: "recipe_step_succeeded"; readonly content: string }
    | { readonly type: "recipe_step_failed"; readonly error: string }
  );

/**
 * The method by which a runner's `ctx` takes a recipe step's report. A symbol, not a public
 * field: the runner's context has it on its prototype (no cost per call), and a context made by
 * someone else (a custom executor's own) has none, so its recipe reports nothing.
 */
export const REPORT_RECIPE_STEP: unique symbol = /* @__PURE__ */ Symbol("toolrx.reportRecipeStep");

/** A `ctx` that can take recipe step reports: the runner's. */
export interface RecipeStepReporter {
  [REPORT_RECIPE_STEP](body: RecipeStepBody): void;
}

/**
 * The report function of a runner's context, for code that runs inside a call (a resolver's
 * recipe); `undefined` for a context the runner did not make.
 */
export function reporterOf(ctx: HandlerContext): ((body: RecipeStepBody) => void) | undefined {
  const report = (ctx as Partial<RecipeStepReporter>)[REPORT_RECIPE_STEP];
  return typeof report === "function" ? (body) => report.call(ctx, body) : undefined;
}
