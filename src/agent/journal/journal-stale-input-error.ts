/**
 * A run was started on an input older than its conversation's latest recorded run: one the
 * journal recorded as an earlier run's input, with a later run after it. Starting a new
 * run from it would ask the model again for turns whose calls ran already (a host that saved the
 * conversation after a run instead of before, and restarted from that save, would charge twice).
 * The run ends with `error` and this as `metadata.error`, having run nothing. Restart from the
 * latest input instead, or pass `journal.fork: true` to start a new run from this one on purpose.
 *
 * @example
 * new JournalStaleInputError("conv-7").message;
 * // 'the input is older than the latest recorded run of conversation "conv-7": ...'
 */
export class JournalStaleInputError extends Error {
  override readonly name = "JournalStaleInputError";
  /** The conversation key. */
  readonly conversationKey: string;

  constructor(conversationKey: string) {
    super(
      `the input is older than the latest recorded run of conversation ${JSON.stringify(conversationKey)}: a new run from it could run calls again; restart from the latest input, or pass \`journal.fork: true\` to start a new run from this one`,
    );
    this.conversationKey = conversationKey;
  }
}
