// The batch checked before anything is scheduled: what the entry points use to hand the pool only checked calls (see README.md).
export { snapshotCalls } from "./snapshot-calls.js";
