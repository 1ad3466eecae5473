import type { CodeModeErrorCode } from "./code-mode-error.js";
import type { Limits } from "./code-mode-options.js";
import { recordedArgs } from "./recorded-args.js";

/** Where a script's calls stand when its next one arrives. */
export interface CallsSoFar {
  /** Calls taken so far: the next must be numbered this. */
  readonly count: number;
  readonly names: ReadonlySet<string>;
  /** Bytes of arguments of the calls not yet answered. */
  readonly inFlightBytes: number;
}

/** A call the host may run, its text parsed and dropped; or why the script ends instead. */
export type CheckedCall =
  | { readonly ok: true; readonly args: unknown; readonly bytes: number; readonly kept: string }
  | { readonly ok: false; readonly code: CodeModeErrorCode; readonly message: string };

/**
 * Check a nested call from the sandbox thread as hostile input: numbered in order, of a known
 * tool, arguments within `maxArgumentBytes` and, with the calls not yet answered, within
 * `maxInFlightBytes`, and JSON. The text is parsed once; what the host keeps of it is
 * {@link recordedArgs}, so its size stops mattering once the call is answered.
 */
export function checkNestedCall(seq: number, name: string, text: string, limits: Limits, sofar: CallsSoFar): CheckedCall {
  if (seq !== sofar.count || !sofar.names.has(name))
    return { ok: false, code: "protocol_error", message: `the sandbox sent call ${seq + 1} of ${name}, expected call ${sofar.count + 1} of a known tool` };
  const bytes = Buffer.byteLength(text);
  if (bytes > limits.maxArgumentBytes)
    return { ok: false, code: "arguments_too_large", message: `call ${seq + 1}'s arguments are ${bytes} bytes of JSON, over ${limits.maxArgumentBytes}` };
  if (sofar.inFlightBytes + bytes > limits.maxInFlightBytes)
    return { ok: false, code: "arguments_too_large", message: `the calls waiting for answers hold over ${limits.maxInFlightBytes} bytes of arguments` };
  try {
    return { ok: true, args: JSON.parse(text), bytes, kept: recordedArgs(text) };
  } catch {
    return { ok: false, code: "protocol_error", message: `the sandbox sent call ${seq + 1} with arguments that are not JSON` };
  }
}
