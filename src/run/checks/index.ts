// The batch checked before anything is scheduled: what the entry points use to hand the pool only checked calls (see README.md).
export { checkBatch } from "./check-batch.js";
export { checkCall } from "./checked-call.js";
export type { CheckedCall } from "./checked-call.js";
export { snapshotCalls } from "./snapshot-calls.js";
