// The bounded merge, as the entry points use it (see README.md).
export { Pool } from "./pool.js";
export type { PoolSink } from "./pool-sink.js";
export { SharedAbort } from "./shared-abort.js";
