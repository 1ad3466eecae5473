/**
 * Attribute, span and metric names. The `gen_ai.*` and `error.type` names are the OpenTelemetry
 * GenAI semantic conventions (status: development), so backends that know them recognise toolrx's
 * spans; the `toolrx.*` names carry what only a tool runner knows and the conventions do not name.
 * Literals rather than `@opentelemetry/semantic-conventions`: its incubating entry point is large,
 * changes between minor versions, and does not have the tool metrics yet.
 */

export const GEN_AI_OPERATION_NAME = "gen_ai.operation.name";
export const GEN_AI_TOOL_NAME = "gen_ai.tool.name";
export const GEN_AI_TOOL_CALL_ID = "gen_ai.tool.call.id";
export const GEN_AI_TOOL_DESCRIPTION = "gen_ai.tool.description";
export const GEN_AI_TOOL_TYPE = "gen_ai.tool.type";
export const GEN_AI_TOOL_CALL_ARGUMENTS = "gen_ai.tool.call.arguments";
export const GEN_AI_TOOL_CALL_RESULT = "gen_ai.tool.call.result";
export const GEN_AI_AGENT_NAME = "gen_ai.agent.name";
export const GEN_AI_PROVIDER_NAME = "gen_ai.provider.name";
export const GEN_AI_REQUEST_MODEL = "gen_ai.request.model";
export const GEN_AI_CONVERSATION_ID = "gen_ai.conversation.id";
export const GEN_AI_RESPONSE_FINISH_REASONS = "gen_ai.response.finish_reasons";
export const ERROR_TYPE = "error.type";

export const OPERATION_EXECUTE_TOOL = "execute_tool";
export const OPERATION_INVOKE_AGENT = "invoke_agent";
export const OPERATION_CHAT = "chat";

/** The call's position in its batch (the event `index`). */
export const TOOLRX_CALL_INDEX = "toolrx.call.index";
/** What the call came to: see {@link CallOutcome}. */
export const TOOLRX_CALL_OUTCOME = "toolrx.call.outcome";
/** Milliseconds the call waited for a concurrency slot before it started. */
export const TOOLRX_CALL_QUEUE_WAIT_MS = "toolrx.call.queue_wait_ms";
/** What the `onToolError` policy made of a failure: `continue`, `halt` or `continue_with_value`. */
export const TOOLRX_POLICY_DECISION = "toolrx.policy.decision";
/** The reason of a handler's own `halt(reason, result)`. */
export const TOOLRX_HALT_REASON = "toolrx.halt.reason";
/** The deadline that fired, in milliseconds, on a timed-out call. */
export const TOOLRX_DEADLINE_MS = "toolrx.deadline.ms";
/** The loop's turn number (from 0 in each run). */
export const TOOLRX_TURN = "toolrx.turn";
/** Why the loop stopped (`completed`, `ask_user`, `max_turns`, ...). */
export const TOOLRX_HALTED_REASON = "toolrx.agent.halted_reason";

/** Span events. */
export const EVENT_ASK_USER = "toolrx.ask_user";
export const EVENT_HALT = "toolrx.halt";
export const EVENT_CANCELLED = "toolrx.cancelled";

/** Metrics. */
export const METRIC_TOOL_DURATION = "gen_ai.execute_tool.duration";
export const METRIC_AGENT_DURATION = "gen_ai.invoke_agent.duration";
export const METRIC_ACTIVE_CALLS = "toolrx.execute_tool.active";
export const METRIC_QUEUE_WAIT = "toolrx.execute_tool.queue_wait";
export const METRIC_TIMEOUTS = "toolrx.execute_tool.timeouts";

/**
 * What a call came to, low-cardinality for metrics: the tail event it ended with, or
 * `cancelled` when the stream let go of it first.
 */
export type CallOutcome = "ok" | "error" | "ask_user" | "halt" | "cancelled";

/** The `error.type` of a call that was cancelled (unsubscribe, `opts.signal`). */
export const ERROR_CANCELLED = "cancelled";
/** The conventions' fallback `error.type` for a failure that has no low-cardinality name. */
export const ERROR_OTHER = "_OTHER";
