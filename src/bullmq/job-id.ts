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
  // Read by offsets, not split: a worker reads one id per job, and the parts' array and copies were garbage of each.
  const first = jobId.indexOf("|");
  const second = first === -1 ? -1 : jobId.indexOf("|", first + 1);
  const nth = second === -1 ? undefined : jobId.slice(second + 1);
  const attempt = nth === undefined ? 1 : Number(nth);
  if (first !== -1 && (nth === undefined || (Number.isSafeInteger(attempt) && attempt >= 2 && String(attempt) === nth))) {
    const call = second === -1 ? jobId.slice(first + 1) : jobId.slice(first + 1, second);
    try {
      // Only an escape can be malformed, and only an escape changes in decoding.
      const toolCallId = call.includes("%") ? decodeURIComponent(call) : call;
      return { toolCallId, idempotencyKey: `toolrx:${second === -1 ? jobId : jobId.slice(0, second)}`, attempt };
    } catch {
      // A malformed escape: not an id jobIdOf wrote.
    }
  }
  throw new TypeError(`Expected a call job's id as \`jobIdOf\` writes it (<key>|<call id>[|<attempt>]), got ${JSON.stringify(jobId)}`);
}
