/** What a sandbox thread says about the script it runs. */
export type FromSandbox =
  | { readonly type: "ready" }
  | { readonly type: "stopped" }
  | { readonly type: "idle" }
  | { readonly type: "call"; readonly seq: number; readonly name: string; readonly args: string }
  | { readonly type: "done"; readonly ok: true; readonly value: string }
  | { readonly type: "done"; readonly ok: false; readonly code: ThreadCode; readonly message: string };

/**
 * The codes a thread may end a script with: what it sees itself. The host's own (`diverged`,
 * `killed`, `protocol_error`, `script_too_large`) never come from a thread.
 */
export const THREAD_CODES = [
  "script_error",
  "cpu_time",
  "memory",
  "stack_overflow",
  "too_many_calls",
  "result_too_large",
  "result_unserializable",
  "arguments_too_large",
] as const;

/** One of {@link THREAD_CODES}. */
export type ThreadCode = (typeof THREAD_CODES)[number];

const threadCodes: ReadonlySet<string> = new Set(THREAD_CODES);

/** How much of a script's error text reaches the model: enough to read, never a channel for bulk data. */
export const MESSAGE_CHARS = 4_096;

/**
 * Read a message from a sandbox thread as hostile input: the thread runs the guest's code, so
 * anything it posts is checked for its exact shape before the host acts on it. `undefined` for
 * anything else; the caller ends the script `protocol_error` and the thread with it.
 */
export function readSandboxMessage(raw: unknown): FromSandbox | undefined {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return undefined;
  const m = raw as Record<string, unknown>;
  switch (m.type) {
    case "ready":
    case "stopped":
    case "idle":
      return { type: m.type };
    case "call":
      if (!Number.isSafeInteger(m.seq) || (m.seq as number) < 0 || typeof m.name !== "string" || typeof m.args !== "string") return undefined;
      return { type: "call", seq: m.seq as number, name: m.name, args: m.args };
    case "done":
      if (m.ok === true && typeof m.value === "string") return { type: "done", ok: true, value: m.value };
      if (m.ok === false && typeof m.code === "string" && threadCodes.has(m.code) && typeof m.message === "string")
        return { type: "done", ok: false, code: m.code as ThreadCode, message: m.message.slice(0, MESSAGE_CHARS) };
      return undefined;
    default:
      return undefined;
  }
}

/** A script's end as the host takes it: its value, parsed, or the code it ends with (`kill`: the thread is not to be trusted again). */
export type ScriptOutcome =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly code: ThreadCode | "protocol_error"; readonly message: string; readonly kill: boolean };

/** Read a `done` message's value as hostile input too: within `maxResultBytes`, and JSON. */
export function readScriptOutcome(message: Extract<FromSandbox, { type: "done" }>, maxResultBytes: number): ScriptOutcome {
  if (!message.ok) return { ok: false, code: message.code, message: message.message, kill: false };
  const bytes = Buffer.byteLength(message.value);
  if (bytes > maxResultBytes)
    return { ok: false, code: "result_too_large", message: `the script's value is ${bytes} bytes of JSON, over ${maxResultBytes}`, kill: false };
  try {
    return { ok: true, value: JSON.parse(message.value) };
  } catch {
    return { ok: false, code: "protocol_error", message: "the sandbox sent a value that is not JSON", kill: true };
  }
}
