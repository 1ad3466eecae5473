/** A nested call's answer, as the script received it: a JSON value, or a typed failure. */
export interface NestedAnswer {
  readonly ok: boolean;
  /** JSON text: the value, or `{ reason, message }` of the failure. */
  readonly text: string;
}

/** One nested call of a script, as the record of a halted script keeps it. */
export interface RecordedCall {
  /** The call's place in the script's order of calls (0 for the first). */
  readonly seq: number;
  readonly name: string;
  /** The arguments, as the script's JSON text; past 256 characters, `sha256:<hex>` of that text. */
  readonly args: string;
  /** Its answer; absent while it waits for its approval or the user's answer. */
  readonly answer?: NestedAnswer;
  /** Whether the script had read the answer before the halt (then its order matters on replay). */
  readonly delivered: boolean;
  /** The call asked the user: the halt's question is its, and the user's answer (or its subagent's resume) answers it. */
  readonly asked?: boolean;
}

/**
 * What a halted script leaves to resume it: the id its nested calls are numbered from, the
 * frozen time and random seed, and every nested call it made, in the order their answers
 * reached it. It rides in the halt's pending state (the parent's `askUser` opts), so whatever
 * keeps the conversation (the durable journal included) keeps it.
 */
export interface ScriptRecord {
  readonly baseId: string;
  readonly now: number;
  readonly seed: number;
  readonly calls: readonly RecordedCall[];
}

/** Whether a value read back from a conversation is a record (a host may have written anything there). */
export function isScriptRecord(value: unknown): value is ScriptRecord {
  if (typeof value !== "object" || value === null) return false;
  const r = value as Record<string, unknown>;
  return typeof r.baseId === "string" && typeof r.now === "number" && typeof r.seed === "number" && Array.isArray(r.calls) && r.calls.every(isRecordedCall);
}

function isRecordedCall(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const c = value as Record<string, unknown>;
  const answer = c.answer as Record<string, unknown> | undefined;
  return (
    Number.isInteger(c.seq) &&
    typeof c.name === "string" &&
    typeof c.args === "string" &&
    typeof c.delivered === "boolean" &&
    (c.asked === undefined || typeof c.asked === "boolean") &&
    (answer === undefined || (typeof answer === "object" && answer !== null && typeof answer.ok === "boolean" && typeof answer.text === "string"))
  );
}
