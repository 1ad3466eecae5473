/**
 * Names shared by more than one file. Span and metric names follow the OpenTelemetry GenAI
 * semantic conventions (status: development) where they name a thing (`execute_tool`,
 * `invoke_agent`, `chat`, `gen_ai.*`, `error.type`); `toolrx.*` names carry what only a tool
 * runner knows. Attribute keys on the per-call path are written out as literals where they are
 * used (see call-spans.ts); docs/observability.md lists every name.
 */

/** Metrics. */
export const METRIC_TOOL_DURATION = "gen_ai.execute_tool.duration";
export const METRIC_AGENT_DURATION = "gen_ai.invoke_agent.duration";
export const METRIC_ACTIVE_CALLS = "toolrx.execute_tool.active";
export const METRIC_QUEUE_WAIT = "toolrx.execute_tool.queue_wait";
export const METRIC_TIMEOUTS = "toolrx.execute_tool.timeouts";
export const METRIC_LATE_SETTLEMENTS = "toolrx.execute_tool.late_settlements";

/** Span events. */
export const EVENT_ASK_USER = "toolrx.ask_user";
export const EVENT_CANCELLED = "toolrx.cancelled";

/**
 * What a call came to, low-cardinality for metrics: the tail event it ended with, or
 * `cancelled` when the stream let go of it first.
 */
export type CallOutcome = "ok" | "error" | "ask_user" | "halt" | "cancelled";

/** The `error.type` of a call, turn or run that was cancelled (unsubscribe, `opts.signal`). */
export const ERROR_CANCELLED = "cancelled";
/** The conventions' fallback `error.type` for a failure that has no low-cardinality name. */
export const ERROR_OTHER = "_OTHER";
