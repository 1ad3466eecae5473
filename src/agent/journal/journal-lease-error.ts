/**
 * The journal of a conversation is held by another process (two processes resumed it at once, or
 * this one lost its lease while it ran). The run ends with `error` and this as `metadata.error`;
 * nothing of the conversation ran here. Start it again once the other run has ended, or its lease
 * (`journal.leaseMs`) has run out.
 *
 * @example
 * new JournalLeaseError("conv-7", "worker-b").message;
 * // 'the journal of conversation "conv-7" is held by "worker-b": another run of it is under way'
 */
export class JournalLeaseError extends Error {
  override readonly name = "JournalLeaseError";
  /** The conversation key. */
  readonly conversationKey: string;
  /** Who holds the lease, when the store can tell. */
  readonly holder: string | undefined;

  constructor(conversationKey: string, holder: string | undefined) {
    super(
      `the journal of conversation ${JSON.stringify(conversationKey)} is held by ${holder === undefined ? "another owner" : JSON.stringify(holder)}: another run of it is under way`,
    );
    this.conversationKey = conversationKey;
    this.holder = holder;
  }
}
