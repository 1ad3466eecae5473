import type { ToolSchema } from "../schema/types.js";
import type { SampleReply, SampleRequest } from "./sampling.js";
import type { ToolCall } from "./tool-call.js";
import type { UserAnswerOf } from "./user-form.js";

/** What a handler passes to `ctx.progress`: MCP's progress notification, plus partial data. */
export interface ProgressUpdate {
  /** How far along; grows with each report (units are the tool's: bytes, rows, steps). */
  readonly progress: number;
  /** The `progress` at which the work is done, when known. */
  readonly total?: number;
  /** A line for a human, such as "page 3 of 7". */
  readonly message?: string;
  /** A partial result, for a UI that shows what is in so far. */
  readonly data?: unknown;
}

/** The severities of a log entry, as MCP's `notifications/message` (and syslog, RFC 5424) has them, lowest first. */
export const LOG_LEVELS: readonly LogLevel[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

/** A log entry's severity: one of {@link LOG_LEVELS}. */
export type LogLevel = "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";

/** What a handler passes to `ctx.log`: MCP's log message. */
export interface LogEntry {
  readonly level: LogLevel;
  /** What to log: a message, or any JSON-serialisable value. */
  readonly data: unknown;
  /** Which part of the tool logs it, when that helps the reader. */
  readonly logger?: string;
}

/** What a handler's second parameter carries. */
export interface HandlerContext {
  /** The caller's opaque value (`opts.context`, else `engine.context`, else `{}`). */
  readonly context: unknown;
  readonly sessionId: string | undefined;
  readonly requestId: string | undefined;
  /** The exact call the model emitted. */
  readonly toolCall: ToolCall;
  readonly engine: unknown;
  /**
   * Aborted when the call's deadline passes (reason: the `timeout` `ToolError`), when the
   * stream is unsubscribed, or when `opts.signal` aborts (reason: the signal's reason).
   */
  readonly signal: AbortSignal;
  /**
   * Report how far the call has got: it reaches `RunOptions.onCallReport` as a `progress`
   * report, and restarts the `toolIdleTimeout` deadline. Ignored once the call is answered; too
   * late once an idle deadline has passed (the call answers `timeout` then). Never throws: an
   * update that is not `{ progress: number, ... }` is dropped and its `TypeError` goes to RxJS's
   * `config.onUnhandledError`, since a report must not fail the work it reports on.
   *
   * @example
   * ctx.progress({ progress: 3, total: 7, message: "page 3 of 7" });
   */
  progress(update: ProgressUpdate): void;
  /**
   * Log something about the call: it reaches `RunOptions.onCallReport` as a `log` report (the one
   * side channel, beside progress), and a tool served over MCP sends it to the client as
   * `notifications/message` tied to the request, at or above the level the client set. Like
   * progress, it restarts the `toolIdleTimeout` deadline (a call that logs is alive). Ignored
   * once the call is answered. Never throws: an entry without a known `level` is dropped
   * and its `TypeError` goes to RxJS's `config.onUnhandledError`.
   *
   * @example
   * ctx.log({ level: "info", data: "fetched 3 of 7 pages" });
   */
  log(entry: LogEntry): void;
  /**
   * Ask the user a question with a form, during the call: the answer's content is validated
   * against `schema` (its defaults applied) and typed by it; `decline` and `cancel` are the
   * user's other answers. Served over MCP (`serveTools`) this is an `elicitation/create` form (on
   * revision 2026-07-28, an `input_required` answered when the client calls again). Where nothing
   * can answer during the call (`runToolCalls`, the agent loop) the call ends as `askUser(question,
   * { form })` would, halting the loop with the question and its form. Rejects with a
   * `ClientRequestError` (`not_supported`, `invalid_answer`, `failed`) or the call's abort reason.
   *
   * @example
   * const answer = await ctx.askUser("Ship where?", z.object({ city: z.string() }));
   * if (answer.action !== "accept") return error(`the user said ${answer.action}`);
   * return ok(`shipping to ${answer.content.city}`);
   */
  askUser<S extends ToolSchema>(question: string, schema: S): Promise<UserAnswerOf<S>>;
  /**
   * Ask the client's model (MCP `sampling/createMessage` when served with `serveTools`). Rejects
   * with a `ClientRequestError`: `no_client` outside a served call, `not_supported` when the client
   * did not declare sampling, `invalid_answer` or `failed`; or with the call's abort reason.
   *
   * @example
   * const { text } = await ctx.sample({ messages: [{ role: "user", content: "Summarise: ..." }], maxTokens: 200 });
   */
  sample(request: SampleRequest): Promise<SampleReply>;
}
