import type { ToolResolver } from "../../resolve/resolver.js";
import type { RunOptions } from "../../run/options/run-options.js";
import type { AssistantMessage, Message, ToolMessage } from "../../tool/message.js";
import type { Tool } from "../../tool/tool.js";
import type { JournalOptions } from "../journal/index.js";
import type { Model } from "../model/index.js";
import type { PrepareTurn } from "../prepare-turn/index.js";

/** One turn, as `haltWhen` sees it. */
export interface TurnResult {
  readonly turn: number;
  readonly assistant: AssistantMessage;
  readonly toolMessages: readonly ToolMessage[];
}

/** Options of {@link streamAgent} and {@link runAgent}: every {@link RunOptions} applies to each turn's tool calls. */
export interface AgentOptions extends RunOptions {
  readonly model: Model;
  readonly tools: readonly Tool[] | ToolResolver;
  /** The conversation so far. */
  readonly messages: readonly Message[];
  /** Model calls at most in this run. Default 8. */
  readonly maxTurns?: number;
  /** Checked after each turn that did not already end the loop. */
  readonly haltWhen?: (turn: TurnResult) => boolean;
  /** `"manual"`: no tool runs; the model's calls are handed to the host. Default `"auto"`. */
  readonly mode?: "auto" | "manual";
  /**
   * Asked before each model request: which tools the model sees this turn (a call to any other
   * is answered `not_found`), and how the request is amended (messages, model options). See
   * {@link TurnPlan}. May be async. Default: every tool, the conversation as it is.
   */
  readonly prepareTurn?: PrepareTurn;
  /**
   * Tool calls the loop runs at most per model turn. The model's calls beyond it are never run:
   * each is answered, in the model's order, with an error the model reads (the limit, and to ask
   * again in a later turn if it still needs the call), so the conversation stays complete. A
   * resumed turn's calls were counted when the model made them. Default: no limit.
   */
  readonly maxCallsPerTurn?: number;
  /**
   * Record the run in a journal, so that the same conversation started again after a crash
   * resumes from it: a recorded reply is not asked of the model again, a recorded outcome
   * answers its call, a call cut off mid-run is re-attached or answered with its fate unknown.
   * See docs/durable.md.
   */
  readonly journal?: JournalOptions;
}
