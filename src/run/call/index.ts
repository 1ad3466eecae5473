// One call's life, as the pool starts and tracks it (see README.md).
export type { CallSink } from "./call-sink.js";
export type { Abandoned } from "./late-settlement.js";
export { CallRun } from "./run-one.js";
