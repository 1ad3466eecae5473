// The public file of journal/ (the durable journal): the only one its sibling concepts and src/index.ts import (see ../README.md).
export { journalAnswer, recordingHandles, resendsInFlight, type BatchJournal, type JournalAnswer } from "./journal-calls.js";
export { JournalLeaseError } from "./journal-lease-error.js";
export type { JournalReattach } from "./journal-reattach.js";
export { replayOf } from "./journal-replay.js";
export { JournalStaleInputError } from "./journal-stale-input-error.js";
export {
  checkJournalOptions,
  type JournalEntry,
  type JournalEnv,
  type JournalOptions,
  type JournalPhase,
  type JournalStore,
  type JournalVerdict,
} from "./journal.js";
export { MemoryJournalStore, type MemoryJournalStoreOptions } from "./memory-journal-store.js";
export { RecordedEndingError } from "./recorded-ending-error.js";
export { RunJournal } from "./run-journal.js";
