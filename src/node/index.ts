export { decodeResult, decodeThrown, encodeResult, encodeThrown, type CodecOutcome, type Wire, type WireResult } from "./codec.js";
export { isolatedTool, type IsolatedToolDefinition } from "./isolated-tool.js";
export type { ResourceLimits, WorkerPoolOptions } from "./pool-options.js";
export { workerPool, type WorkerPool, type WorkerPoolStats } from "./worker-pool.js";
