// What a run is given, checked and resolved into its RunEnv, as the other concepts use it (see README.md).
export { gatedExecutor } from "./approval-gate.js";
export { resolveOptions } from "./options.js";
export { runEnvOf } from "./default-env.js";
export type { RunEnv } from "./options.js";
export { applyPolicy } from "./policy.js";
export type { CallCancellation, RunOptions } from "./run-options.js";
export { toolSource } from "./tool-source.js";
export type { ToolSource } from "./tool-source.js";
