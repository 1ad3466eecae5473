/**
 * A BullMQ job id for one attempt of one call: `<key>|<call id>` (`|<attempt>` from the second
 * attempt on). Both parts are percent-encoded, so the id never holds a `:` (BullMQ throws on it),
 * the separator stays unambiguous (two conversations never collide), and it is never an integer
 * (BullMQ refuses integer custom ids).
 *
 * @example
 * jobIdOf("conv-7", "call_1", 1); // "conv-7|call_1"
 * jobIdOf("a:b", "c|d", 2);       // "a%3Ab|c%7Cd|2"
 */
export function jobIdOf(key: string, toolCallId: string, attempt: number): string {
  const id = `${escapePart(key)}|${escapePart(toolCallId)}`;
  return attempt === 1 ? id : `${id}|${attempt}`;
}

/** The key a handler can hand to the outside world to make its effect idempotent: stable across restarts and attempts. */
export function idempotencyKeyOf(key: string, toolCallId: string): string {
  return `toolrx:${escapePart(key)}|${escapePart(toolCallId)}`;
}

function escapePart(part: string): string {
  // encodeURIComponent escapes `:` `|` `%` and keeps the id readable for the common cases.
  return encodeURIComponent(part);
}
