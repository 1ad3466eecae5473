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

/** What a call job's id says: the call's id, its idempotency key and the attempt (see {@link jobIdOf}). */
export interface JobIdParts {
  readonly toolCallId: string;
  readonly idempotencyKey: string;
  readonly attempt: number;
}

/**
 * Read back what {@link jobIdOf} wrote: a worker takes the call's id, idempotency key and
 * attempt from the job's id rather than from its data.
 *
 * @throws {TypeError} for an id {@link jobIdOf} does not write.
 *
 * @example
 * jobIdPartsOf("a%3Ab|c%7Cd|2"); // { toolCallId: "c|d", idempotencyKey: "toolrx:a%3Ab|c%7Cd", attempt: 2 }
 */
export function jobIdPartsOf(jobId: string): JobIdParts {
  const parts = jobId.split("|");
  const [key, call, nth] = parts;
  const attempt = nth === undefined ? 1 : Number(nth);
  const written = parts.length >= 2 && parts.length <= 3 && key !== undefined && call !== undefined && Number.isSafeInteger(attempt);
  if (written && (nth === undefined || (attempt >= 2 && String(attempt) === nth))) {
    try {
      return { toolCallId: decodeURIComponent(call), idempotencyKey: `toolrx:${key}|${call}`, attempt };
    } catch {
      // A malformed escape: not an id jobIdOf wrote.
    }
  }
  throw new TypeError(`Expected a call job's id as \`jobIdOf\` writes it (<key>|<call id>[|<attempt>]), got ${JSON.stringify(jobId)}`);
}
