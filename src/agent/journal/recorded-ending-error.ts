import { describe } from "../../tool/tool-error.js";

/**
 * The run of this input had ended before (the journal recorded its ending) with a reason the
 * record alone cannot play back to (`error`, `cancelled`: what caused it is not in the record),
 * so its restart ends the same way where it would ask the model past its record, asking the model
 * nothing and running nothing new. (A run that ended refusing its decisions judges them again on
 * restart: nothing ran, and the refusal stands with its own error.) It is `metadata.error` of a replayed `error` ending and
 * `metadata.reason` of a replayed `cancelled` one; `recorded` is the first ending's error, as
 * its name and message. A restart that went further than its record (the host changed the
 * options) ends with `error` and this, `haltedReason` naming the ending on record.
 *
 * To go on, start from the ending's `messages` (a new input, so a new run), as after any ending.
 */
export class RecordedEndingError extends Error {
  override readonly name = "RecordedEndingError";
  /** The ending on record. */
  readonly haltedReason: string;
  /** The first ending's error (or cancel reason), as far as JSON kept it. */
  readonly recorded: { readonly name: string; readonly message: string } | undefined;

  constructor(haltedReason: string, recorded: { readonly name: string; readonly message: string } | undefined) {
    super(
      `this input's run ended with "${haltedReason}"${recorded === undefined ? "" : ` (${recorded.name}: ${recorded.message})`} before; its ending is played back from the journal`,
    );
    this.haltedReason = haltedReason;
    this.recorded = recorded;
  }
}

/** A run's ending as the journal keeps it. */
export interface RecordedEnding {
  readonly haltedReason: string;
  readonly error?: { readonly name: string; readonly message: string };
}

/** What an `error` or `cancelled` ending was, as the journal keeps it: its name and message. */
export function errorRecord(error: unknown): { name: string; message: string } {
  // A replayed ending's error stands for the first one: that is what is kept.
  if (error instanceof RecordedEndingError && error.recorded !== undefined) return { ...error.recorded };
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: typeof error, message: describe(error) };
}
