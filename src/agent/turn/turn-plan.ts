import type { ToolResolver } from "../../resolve/resolver.js";
import { isToolResolver } from "../../resolve/resolver.js";
import type { Message } from "../../tool/message.js";
import type { Tool } from "../../tool/tool.js";
import type { TurnPlan } from "../prepare-turn/index.js";
import { describe } from "../../tool/tool-error.js";
import type { BatchEnv } from "../batch/index.js";
import { NOT_OFFERED } from "../../run/options/options.js";

/** One turn's own tools and request, from a plan. */
export interface PlannedTurn {
  readonly env: BatchEnv;
  readonly messages: readonly Message[] | undefined;
  readonly modelOptions: Readonly<Record<string, unknown>> | undefined;
}

/**
 * Apply a plan to a turn: the batch env of the offered tools only (for the model, the approval
 * and manual checks, and the runner), and the request's amendments.
 *
 * @throws {TypeError} when the plan is malformed or names a tool the run does not have.
 */
export function planned(env: BatchEnv, plan: unknown): PlannedTurn {
  if (plan === undefined) return { env, messages: undefined, modelOptions: undefined };
  if (typeof plan !== "object" || plan === null || Array.isArray(plan))
    throw new TypeError(`Expected \`prepareTurn\` to answer a plan { tools?, messages?, modelOptions? } or nothing, got ${describe(plan)}`);
  const { tools, messages, modelOptions, notOffered, ...rest } = plan as TurnPlan;
  const extra = Object.keys(rest)[0];
  if (extra !== undefined)
    throw new TypeError(`Unknown key \`${extra}\` in the plan \`prepareTurn\` answered; a plan has \`tools\`, \`messages\`, \`modelOptions\`, \`notOffered\``);
  if (notOffered !== undefined && typeof notOffered !== "string")
    throw new TypeError(`Expected \`notOffered\` of the turn plan to be a string, got ${describe(notOffered)}`);
  if (messages !== undefined && !Array.isArray(messages))
    throw new TypeError(`Expected \`messages\` of the turn plan to be an array of messages, got ${describe(messages)}`);
  if (modelOptions !== undefined && (typeof modelOptions !== "object" || modelOptions === null || Array.isArray(modelOptions))) {
    throw new TypeError(`Expected \`modelOptions\` of the turn plan to be an object, got ${describe(modelOptions)}`);
  }
  if (tools === undefined) return { env, messages, modelOptions };
  if (!Array.isArray(tools) || tools.some((name) => typeof name !== "string"))
    throw new TypeError(`Expected \`tools\` of the turn plan to be an array of tool names, got ${describe(tools)}`);
  const offered = new Set(tools);
  for (const name of offered) {
    if (env.lookup(name) === undefined)
      throw new TypeError(`The turn plan offers tool "${name}", which is not in \`tools\`; the tools are ${env.tools.map((t) => `"${t.name}"`).join(", ")}`);
  }
  const list = env.tools.filter((tool) => offered.has(tool.name));
  const lookup = (name: string) => (offered.has(name) ? env.lookup(name) : undefined);
  const available = list.map((tool) => tool.name).join(", ") || "none";
  const hidden = (name: string): string | undefined =>
    env.lookup(name) === undefined || offered.has(name)
      ? undefined
      : `tool ${name} is not offered this turn${notOffered === undefined || notOffered === "" ? "" : `; ${notOffered}`}; offered tools: ${available}`;
  const runOptions = { ...env.agent.runOptions, [NOT_OFFERED]: hidden };
  return { env: { ...env, tools: list, lookup, agent: { ...env.agent, runOptions, tools: narrowed(env.agent.tools, list, offered) } }, messages, modelOptions };
}

/** The run's tools (or resolver) cut down to the offered ones, for the runner: any other name is `not_found`. */
function narrowed(tools: readonly Tool[] | ToolResolver, list: readonly Tool[], offered: ReadonlySet<string>): readonly Tool[] | ToolResolver {
  if (!isToolResolver(tools)) return list;
  const narrowedResolver: ToolResolver = {
    availableTools: () => list,
    resolve: (call, ctx) => tools.resolve(call, ctx),
  };
  if (tools.dispatchRecipe !== undefined) {
    const dispatch = tools.dispatchRecipe.bind(tools);
    return { ...narrowedResolver, dispatchRecipe: (name: string) => (offered.has(name) ? dispatch(name) : undefined) };
  }
  return narrowedResolver;
}
