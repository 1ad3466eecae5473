import { describe } from "vitest";
import { MemoryJournalStore } from "../../../src/index.js";
import { journalStoreContract } from "../../support/journal-store-contract.js";

// The contract every journal store keeps (test/support/journal-store-contract.ts), on the memory
// store and its own clock: time passes at once, so its leases and retention are short.
describe("MemoryJournalStore, the journal-store contract", () => {
  let now = 1_000;
  const store = new MemoryJournalStore({ now: () => now });
  journalStoreContract(
    () => ({
      store,
      unitMs: 100,
      elapse: async (ms) => {
        now += ms;
      },
    }),
    { ttlMs: false },
  );
});
