/**
 * A provider's stream ended before the provider said the turn was over (Chat Completions
 * without a `finish_reason`, Responses without `response.completed`, Anthropic without
 * `message_stop`): a dropped connection or a proxy cutting a long response. The model
 * functions finish such a turn with `error` and this as its `error`, so a cut-off turn never
 * passes for a finished one; a tool call still streaming when it was cut never runs.
 *
 * @example
 * new TruncatedStreamError("Anthropic Messages", "message_stop").message;
 * // "the Anthropic Messages stream ended before `message_stop`: the turn was cut off"
 */
export class TruncatedStreamError extends Error {
  override readonly name = "TruncatedStreamError";
  /** Which API's stream: `"OpenAI Chat Completions"`, `"OpenAI Responses"` or `"Anthropic Messages"`. */
  readonly api: string;
  /** The event that should have ended the stream. */
  readonly expected: string;

  constructor(api: string, expected: string) {
    super(`the ${api} stream ended before \`${expected}\`: the turn was cut off`);
    this.api = api;
    this.expected = expected;
  }
}
