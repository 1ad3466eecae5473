import type { HandlerContext } from "../tool/handler-context.js";
import { runRecipe, type Recipe, type RecipeEnv, type RecipePlan, type ResolveAnswer } from "./recipe.js";
import { error, ok, type HandlerResult } from "../tool/results.js";
import { withHandler, type Tool } from "../tool/tool.js";
import type { ToolCall } from "../tool/tool-call.js";
import { describe, ToolError } from "../tool/tool-error.js";
import { isPlainRecord } from "../util/safe.js";

/**
 * A tool source that answers calls itself (LlmToolkit's `ToolResolver`): it lists its tools and
 * resolves each call to text. The runner treats it like a tool list: same checks, events,
 * deadlines and policies.
 */
export interface ToolResolver {
  /** The tools a model may call; handlers optional, since every call goes through `resolve`. */
  availableTools(): readonly Tool[];
  /** Answer one call: `{ ok }` is the content, `{ error }` a failure for the `onToolError` policy. */
  resolve(call: ToolCall, ctx: HandlerContext): ResolveAnswer | Promise<ResolveAnswer>;
  /** A recipe to run instead of `resolve` for `toolName`, or nothing to resolve it directly. */
  dispatchRecipe?(toolName: string): ((args: Record<string, unknown>) => RecipePlan) | null | undefined;
}

/** Whether `value` looks like a {@link ToolResolver} rather than a tool list. */
export function isToolResolver(value: unknown): value is ToolResolver {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    typeof (value as ToolResolver).availableTools === "function" &&
    typeof (value as ToolResolver).resolve === "function"
  );
}

/**
 * The resolver's tools, each answered through the resolver: its recipe when it has one, else
 * `resolve`. `{ ok }` becomes `ok(text)` (strings encode as themselves), `{ error }` becomes
 * `error(text)`; a throw is the handler's, so the executor reports `handler_raised`.
 */
export function resolverTools(resolver: ToolResolver, recipeEnv: Omit<RecipeEnv, "resolve">): Tool[] {
  const listed: unknown = resolver.availableTools();
  if (!Array.isArray(listed)) {
    throw new TypeError(`Expected \`availableTools()\` to return an array of tools, got ${describe(listed)}`);
  }
  const env: RecipeEnv = { ...recipeEnv, resolve: (call, ctx) => resolver.resolve(call, ctx) };
  return listed.map((tool: Tool) =>
    // Resolvers see the call as the model made it; validation only keeps bad calls away.
    withHandler(tool, (_args, ctx) => {
      const call = ctx.toolCall;
      const recipe = resolver.dispatchRecipe?.(tool.name);
      if (typeof recipe === "function") return runRecipe(recipe as Recipe, call, ctx, env);
      return Promise.resolve(resolver.resolve(call, ctx)).then((answer) => resultOf(answer, call));
    }),
  );
}

function resultOf(answer: unknown, call: ToolCall): HandlerResult {
  if (isPlainRecord(answer)) {
    if (typeof answer.ok === "string") return ok(answer.ok);
    if (typeof answer.error === "string") return error(answer.error);
  }
  return error(
    new ToolError("invalid_return", {
      message: `resolver answered ${describe(answer)} for tool ${call.name}; expected { ok: string } or { error: string }`,
      toolName: call.name,
      toolCallId: call.id,
      cause: answer,
    }),
  );
}
