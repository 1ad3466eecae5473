/**
 * The model sent something the loop cannot act on: a malformed event, a tool call without an id,
 * or a call id it already used in the same turn. The loop ends with `error` and this as
 * `metadata.error`; the message says what the model sent.
 *
 * @example
 * new ModelEventError(0, { type: "tool_call", call: { name: "weather" } }, "a tool call without an id").message;
 * // 'turn 0: the model sent a tool call without an id: {"type":"tool_call","call":{"name":"weather"}}'
 */
export class ModelEventError extends Error {
  override readonly name = "ModelEventError";
  /** The turn, counted from 0 in this run. */
  readonly turn: number;
  /** What the model emitted. */
  readonly event: unknown;

  constructor(turn: number, event: unknown, problem: string) {
    super(`turn ${turn}: the model sent ${problem}: ${render(event)}`);
    this.turn = turn;
    this.event = event;
  }
}

function render(value: unknown): string {
  try {
    const text = JSON.stringify(value);
    if (text !== undefined) return text.length > 300 ? `${text.slice(0, 300)}…` : text;
  } catch {
    // a cycle or a bigint: fall through
  }
  return String(value);
}
