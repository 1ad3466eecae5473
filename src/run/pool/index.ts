// The bounded merge, as the entry points use it (see README.md).
export { Pool, type PoolSink } from "./pool.js";
