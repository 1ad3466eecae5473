/**
 * Code mode for toolrx (Node only): one tool whose input is a script that calls your tools, run
 * in a QuickJS sandbox in a worker thread, each nested call going through the batch runner.
 * Needs the optional peer dependencies `quickjs-emscripten-core` and
 * `@jitl/quickjs-wasmfile-release-sync`.
 */
export { codeMode, type CodeMode } from "./code-mode.js";
export { CODE_MODE_ERROR_CODES, CodeModeError, type CodeModeErrorCode } from "./code-mode-error.js";
export type { CodeModeLimits, CodeModeOptions, NestedRunOptions } from "./code-mode-options.js";
export type { NestedAnswer, RecordedCall, ScriptRecord } from "./replay-record.js";
export { toolDeclarations } from "./tool-declarations.js";
