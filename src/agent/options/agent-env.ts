import type { ToolResultEncoder } from "../../tool/encoder.js";
import { resolveOptions } from "../../run/options/options.js";
import { assertExecutorsKnown } from "../../run/options/tool-executors.js";
import type { RunOptions } from "../../run/options/run-options.js";
import { isToolResolver, type ToolResolver } from "../../resolve/resolver.js";
import type { Tool } from "../../tool/tool.js";
import { indexTools } from "../../tool/tool-index.js";
import { describe } from "../../tool/tool-error.js";
import { assertMessages } from "../conversation/index.js";
import type { AgentOptions, TurnResult } from "./agent-options.js";
import type { Model } from "../model/index.js";
import type { PrepareTurn } from "../prepare-turn/index.js";
import type { Message } from "../../tool/message.js";
import type { ApprovalLedger } from "../../tool/approval/approval-ledger.js";
import type { ApprovalBinding } from "../../tool/approval/approval-binding.js";
import { conversationKeyOf } from "./conversation-key.js";
import { checkJournalOptions, type JournalEnv } from "../journal/index.js";

/** {@link AgentOptions} checked, with every default filled in. */
export interface AgentEnv {
  readonly model: Model;
  readonly tools: readonly Tool[] | ToolResolver;
  /** A snapshot: later changes to the caller's array do not reach a running loop. */
  readonly messages: readonly Message[];
  readonly maxTurns: number;
  readonly haltWhen: ((turn: TurnResult) => boolean) | undefined;
  readonly manualMode: boolean;
  readonly prepareTurn: PrepareTurn | undefined;
  /** `Infinity` when unset. */
  readonly maxCallsPerTurn: number;
  /** The caller's cancellation; each turn's tools get the loop's own signal instead. */
  readonly signal: AbortSignal | undefined;
  /** The options every turn's `streamToolCalls` gets (the loop puts its own `signal` in). */
  readonly runOptions: RunOptions;
  readonly encoder: ToolResultEncoder;
  readonly validate: boolean;
  readonly context: unknown;
  readonly sessionId: string | undefined;
  readonly requestId: string | undefined;
  readonly approvalLedger: ApprovalLedger | undefined;
  /** The `journal` option, checked. */
  readonly journal: JournalEnv | undefined;
  /** The secrets, token lifetime, clock, and the conversation key ({@link conversationKeyOf}) approvals bind. */
  readonly approvalBinding: ApprovalBinding;
}

/** Names {@link AgentOptions} adds to {@link RunOptions}: they stay out of each turn's runner options. */
const AGENT_KEYS: ReadonlySet<string> = /* @__PURE__ */ new Set([
  "model",
  "tools",
  "messages",
  "maxTurns",
  "haltWhen",
  "mode",
  "signal",
  "prepareTurn",
  "maxCallsPerTurn",
  "journal",
]);

/**
 * Check every option up front, so a misconfigured agent fails where it is called, before any
 * model request.
 *
 * @throws {TypeError} naming the option and what it got.
 */
export function checkAgentOptions(options: AgentOptions): AgentEnv {
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new TypeError(`Expected agent options to be an object, got ${describe(options)}`);
  }
  const { model, tools, messages, maxTurns = 8, haltWhen, mode = "auto" } = options;
  if (typeof model !== "function") throw new TypeError(`Expected \`model\` to be a function (request) => ObservableInput<ModelEvent>, got ${describe(model)}`);
  if (!isToolResolver(tools) && !Array.isArray(tools)) {
    throw new TypeError(`Expected \`tools\` to be an array of tools or a ToolResolver, got ${describe(tools)}`);
  }
  if (Array.isArray(tools)) {
    tools.forEach((tool: unknown, i) => {
      if (typeof (tool as { name?: unknown } | null)?.name !== "string") {
        throw new TypeError(`Expected tool at index ${i} to be a tool with a \`name\`, got ${describe(tool)}`);
      }
    });
    indexTools(tools); // duplicate names and conflicting group limits, before any model request
  }
  assertMessages(messages);
  if ((options as { approvals?: unknown }).approvals !== undefined) {
    throw new TypeError('Expected no `approvals` option in the agent loop: append each decision to `messages` as `{ role: "approval", ... }`');
  }
  if (!(Number.isInteger(maxTurns) && maxTurns > 0)) throw new TypeError(`Expected \`maxTurns\` to be a positive integer, got ${describe(maxTurns)}`);
  if (haltWhen !== undefined && typeof haltWhen !== "function")
    throw new TypeError(`Expected \`haltWhen\` to be a function (turn) => boolean, got ${describe(haltWhen)}`);
  if (options.prepareTurn !== undefined && typeof options.prepareTurn !== "function") {
    throw new TypeError(`Expected \`prepareTurn\` to be a function (turn) => plan, got ${describe(options.prepareTurn)}`);
  }
  const { maxCallsPerTurn = Infinity } = options;
  if (maxCallsPerTurn !== Infinity && !(Number.isInteger(maxCallsPerTurn) && maxCallsPerTurn > 0)) {
    throw new TypeError(`Expected \`maxCallsPerTurn\` to be a positive integer, got ${describe(maxCallsPerTurn)}`);
  }
  if (mode !== "auto" && mode !== "manual") throw new TypeError(`Expected \`mode\` to be "auto" or "manual", got ${describe(mode)}`);

  const journal = checkJournalOptions(options.journal);
  const env = resolveOptions(options, undefined, AGENT_KEYS); // every RunOptions check, at call time
  if (Array.isArray(tools)) assertExecutorsKnown(tools, env.executors);
  const runOptions: Record<string, unknown> = {};
  for (const key of Object.keys(options)) if (!AGENT_KEYS.has(key)) runOptions[key] = (options as unknown as Record<string, unknown>)[key];
  return {
    model,
    tools,
    messages: messages.slice(),
    maxTurns,
    haltWhen,
    manualMode: mode === "manual",
    prepareTurn: options.prepareTurn,
    maxCallsPerTurn,
    signal: env.signal,
    runOptions: runOptions as RunOptions,
    encoder: env.encoder,
    validate: env.validate,
    context: env.context,
    sessionId: env.sessionId,
    requestId: env.requestId,
    approvalLedger: env.approvalLedger,
    journal,
    approvalBinding: {
      secret: env.approvalSecret,
      ttl: env.approvalTokenTtl,
      conversationKey: conversationKeyOf(options),
      now: () => env.scheduler.now(),
    },
  };
}
