import type { Message } from "../../tool/message.js";
import type { Tool } from "../../tool/tool.js";

/** What {@link PrepareTurn} sees before a model request. */
export interface TurnInfo {
  /** Numbered from 0 in each run: a resumed run starts again at 0 (see `conversationTurn`). */
  readonly turn: number;
  /**
   * The turn's index in the whole conversation, which a resumed run goes on counting: the
   * model's replies already in `messages` (assistant messages, less the ones the loop writes
   * itself: a halt's question, a subagent's continuation). Equal to `turn` in a fresh run.
   */
  readonly conversationTurn: number;
  /** The conversation so far, as the model would get it. */
  readonly messages: readonly Message[];
  /** Every tool of the run. */
  readonly tools: readonly Tool[];
}

/**
 * How one turn's request differs from the run's: the tools the model sees (by name; a call to
 * any other is answered `not_found`, as an unknown one is), the messages it gets instead of the
 * conversation (a system message added, old turns summarised; the conversation itself is not
 * changed), and model options for this request (`temperature`, `tool_choice`…, which the
 * provider models send with the request). Every field is optional.
 */
export interface TurnPlan {
  readonly tools?: readonly string[];
  /**
   * With `tools`: what the model is told when it calls a tool of the run this plan does not
   * offer, after `tool <name> is not offered this turn` (how to get it, e.g. "search for it with
   * search_tools"). Without it the answer still says the tool is not offered, never that it
   * does not exist.
   */
  readonly notOffered?: string;
  readonly messages?: readonly Message[];
  readonly modelOptions?: Readonly<Record<string, unknown>>;
}

/** Asked before each model request; answers nothing (the run's defaults) or a {@link TurnPlan}. */
// biome-ignore lint/suspicious/noConfusingVoidType: a hook with no return statement has type void; it must stay assignable
export type PrepareTurn = (turn: TurnInfo) => TurnPlan | undefined | void | PromiseLike<TurnPlan | undefined | void>;

/** The model's replies in `messages`: what {@link TurnInfo.conversationTurn} counts. */
export function modelTurnsIn(messages: readonly Message[]): number {
  let count = 0;
  for (const m of messages) {
    if (m.role !== "assistant") continue;
    const metadata = m.metadata;
    if (metadata === undefined || (metadata.askUser !== true && metadata.subagentContinuation === undefined)) count++;
  }
  return count;
}
