export { bullmqExecutor, type BullmqExecutor, type BullmqExecutorOptions } from "./bullmq-executor.js";
export { bullmqWorker, type BullmqWorker, type BullmqWorkerOptions } from "./bullmq-worker.js";
export { remoteIdempotencyKey, type RemoteHandlerContext } from "./remote-context.js";
export type { RemoteState } from "./remote-fate.js";
export type { RedisConnection } from "./connection.js";
export { jobIdOf } from "./job-id.js";
export { RedisApprovalLedger, type RedisApprovalLedgerOptions } from "./redis-approval-ledger.js";
export { RedisJournalStore, type RedisJournalStoreOptions } from "./redis-journal-store.js";
