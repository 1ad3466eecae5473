/**
 * The durable agent on Postgres: the journal (`PostgresJournalStore`) and the approval ledger
 * (`PostgresApprovalLedger`), with the same leases, retention and at-most-once semantics as their
 * Redis counterparts in `toolrx/bullmq`. Bring your own client: `pg`'s `Pool` or PGlite.
 */
export { PostgresApprovalLedger, type PostgresApprovalLedgerOptions } from "./postgres-approval-ledger.js";
export type { PostgresClient } from "./postgres-client.js";
export { PostgresJournalStore, type PostgresJournalStoreOptions } from "./postgres-journal-store.js";
