import type { Message } from "../../tool/message.js";
import { isThenable } from "../../tool/results.js";
import { describe } from "../../util/safe.js";
import type { PrepareTurn, TurnInfo, TurnPlan } from "./prepare-turn.js";

/**
 * Several `prepareTurn` hooks as one, applied in order: each sees the messages and tools the ones
 * before it planned, so tool search and clearing old results compose. The plan is the last
 * answer for `tools` and `messages` (each narrowing what came before), `modelOptions` merged
 * (later keys win), and the `notOffered` text of the hook that set `tools`.
 *
 * @example
 * const found = toolSearch({ tools });
 * runAgent({ model, tools: found.tools, messages, prepareTurn: chainTurns(found.prepareTurn, clearToolResults({ keepTurns: 3 })) });
 */
export function chainTurns(...steps: readonly PrepareTurn[]): PrepareTurn {
  steps.forEach((step, i) => {
    if (typeof step !== "function") throw new TypeError(`Expected every hook of chainTurns to be a function, got ${describe(step)} at index ${i}`);
  });
  return (info) => next(steps, 0, info, {});
}

type Plan = { -readonly [K in keyof TurnPlan]: TurnPlan[K] };

function next(steps: readonly PrepareTurn[], i: number, info: TurnInfo, plan: Plan): Plan | Promise<Plan> {
  for (; i < steps.length; i++) {
    const answer = (steps[i] as PrepareTurn)(info);
    if (isThenable(answer)) {
      const at = i;
      return Promise.resolve(answer).then((a) => {
        const merged = merge(plan, a, at);
        return next(steps, at + 1, narrowed(info, merged), merged);
      });
    }
    plan = merge(plan, answer, i);
    info = narrowed(info, plan);
  }
  return plan;
}

function merge(plan: Plan, answer: unknown, i: number): Plan {
  if (answer === undefined) return plan;
  if (typeof answer !== "object" || answer === null || Array.isArray(answer))
    throw new TypeError(
      `Expected hook ${i} of chainTurns to answer a plan { tools?, messages?, modelOptions?, notOffered? } or nothing, got ${describe(answer)}`,
    );
  const a = answer as TurnPlan;
  const merged: Plan = { ...plan };
  if (a.tools !== undefined) {
    merged.tools = a.tools;
    merged.notOffered = a.notOffered;
  }
  if (a.messages !== undefined) merged.messages = a.messages;
  if (a.modelOptions !== undefined) merged.modelOptions = { ...plan.modelOptions, ...a.modelOptions };
  for (const key of Object.keys(a)) if (!(key in PLAN_KEYS)) (merged as Record<string, unknown>)[key] = (a as Record<string, unknown>)[key];
  return merged;
}

const PLAN_KEYS = { tools: true, messages: true, modelOptions: true, notOffered: true } as const;

/** What the next hook sees: the messages and tools planned so far. */
function narrowed(info: TurnInfo, plan: Plan): TurnInfo {
  const messages: readonly Message[] = Array.isArray(plan.messages) ? plan.messages : info.messages;
  const offered = Array.isArray(plan.tools) ? new Set(plan.tools) : undefined;
  const tools = offered === undefined ? info.tools : info.tools.filter((t) => offered.has(t.name));
  return { ...info, messages, tools };
}
