/**
 * Why a script ended without a value: a closed set, so a host can switch on it.
 *
 * - `script_too_large`: the script is longer than `limits.maxScriptBytes` (it never ran).
 * - `script_error`: the script threw (or rejected) and did not catch it; also a syntax error.
 * - `cpu_time`: the script ran longer than `limits.cpuMs` (time spent waiting for tools not counted).
 * - `memory`: the script's heap passed `limits.memoryBytes`.
 * - `stack_overflow`: the script recursed past `limits.stackBytes`.
 * - `too_many_calls`: more than `limits.maxCalls` nested calls.
 * - `arguments_too_large`: a nested call's arguments, as JSON, are longer than
 *   `limits.maxArgumentBytes`, or the calls waiting for answers hold more than `limits.maxInFlightBytes`.
 * - `result_too_large`: the script's value, as JSON, is longer than `limits.maxResultBytes`.
 * - `result_unserializable`: the script's value is not JSON.
 * - `diverged`: on resume, the script asked for other calls than it did before the halt.
 * - `killed`: the sandbox's thread died or was terminated (the call was cancelled, `close()`).
 * - `protocol_error`: the sandbox's thread sent the host what it never sends (a message of no known
 *   shape, a call out of order or of no tool, text that is not JSON): the thread is terminated.
 */
export const CODE_MODE_ERROR_CODES = [
  "script_too_large",
  "script_error",
  "cpu_time",
  "memory",
  "stack_overflow",
  "too_many_calls",
  "arguments_too_large",
  "result_too_large",
  "result_unserializable",
  "diverged",
  "killed",
  "protocol_error",
] as const;

/** One of {@link CODE_MODE_ERROR_CODES}. */
export type CodeModeErrorCode = (typeof CODE_MODE_ERROR_CODES)[number];

/**
 * A script that ended without a value: the code-mode call's `error(…)` reason, which goes to
 * `onToolError` like any handler's error, and whose message the model reads.
 */
export class CodeModeError extends Error {
  readonly code: CodeModeErrorCode;

  constructor(code: CodeModeErrorCode, message: string) {
    super(`script ended (${code}): ${message}`);
    this.name = "CodeModeError";
    this.code = code;
  }
}

/** Whether `code` is one of {@link CODE_MODE_ERROR_CODES}: a thread's word is checked, not trusted. */
export function isCodeModeErrorCode(code: string): code is CodeModeErrorCode {
  return (CODE_MODE_ERROR_CODES as readonly string[]).includes(code);
}
