import type { RunOptions, streamToolCalls, Tool } from "../index.js";

/** The limits of one script; each, when passed, ends it with its {@link CodeModeErrorCode}. */
export interface CodeModeLimits {
  /** Longest script, in UTF-8 bytes; default 65 536. */
  readonly maxScriptBytes?: number;
  /**
   * CPU time the script itself may run, in ms, not counting its waits for tools; default 1 000.
   * Counted on the sandbox thread's own CPU clock where the platform tells it (Linux's
   * `/proc/thread-self`), so a thread starved by a loaded machine is not ended early; as wall
   * time elsewhere. The `cpu_time` message names the clock.
   */
  readonly cpuMs?: number;
  /** The script's heap, in bytes; default 64 MiB. */
  readonly memoryBytes?: number;
  /** The script's stack, in bytes; default 512 KiB. */
  readonly stackBytes?: number;
  /** Nested calls per script; default 100. */
  readonly maxCalls?: number;
  /** Nested calls at once; default 8. */
  readonly maxInFlight?: number;
  /** One nested call's arguments as JSON, in UTF-8 bytes; default 1 MiB. */
  readonly maxArgumentBytes?: number;
  /** The arguments of all the nested calls not yet answered (running or queued), in UTF-8 bytes; default 8 MiB. */
  readonly maxInFlightBytes?: number;
  /** The script's value as JSON, in UTF-8 bytes; default 262 144. */
  readonly maxResultBytes?: number;
}

/** How nested calls run: the batch runner's options, less what each call gets from its code-mode call. */
export type NestedRunOptions = Omit<RunOptions, "signal" | "approvals" | "context" | "sessionId" | "requestId">;

/** The argument of {@link codeMode}. */
export interface CodeModeOptions {
  /** The tools a script may call, as `tools.<name>(args)`. */
  readonly tools: readonly Tool[];
  /** The code-mode tool's name; default `"run_script"`. */
  readonly name?: string;
  /** Said before the generated declarations in the tool's description; default a short guide for the model. */
  readonly description?: string;
  /**
   * The runner's options for nested calls (deadlines, retries, hooks, `onToolError`, executor,
   * `approvalSecret`…): give the same ones as the agent's. `context`, `sessionId`, `requestId`
   * and `signal` are the code-mode call's own.
   */
  readonly run?: NestedRunOptions;
  /**
   * The batch runner nested calls go through; default the core's `streamToolCalls`. Give
   * `telemetry(…).streamToolCalls` (toolrx/otel) to trace them under the code-mode call's span.
   */
  readonly stream?: typeof streamToolCalls;
  readonly limits?: CodeModeLimits;
  /** Sandbox threads, each running one script at a time; default 1. */
  readonly threads?: number;
}

/** The limits, all set. */
export type Limits = Required<CodeModeLimits>;

const DEFAULTS: Limits = {
  maxScriptBytes: 65_536,
  cpuMs: 1_000,
  memoryBytes: 64 * 1024 * 1024,
  stackBytes: 512 * 1024,
  maxCalls: 100,
  maxInFlight: 8,
  maxArgumentBytes: 1024 * 1024,
  maxInFlightBytes: 8 * 1024 * 1024,
  maxResultBytes: 262_144,
};

/** Check the options before anything starts: a `TypeError` naming the option, never a silent default. */
export function checkCodeModeOptions(options: CodeModeOptions): { limits: Limits; name: string; threads: number } {
  if (typeof options !== "object" || options === null) throw new TypeError("Expected `options` of codeMode to be an object");
  const { tools, name = "run_script", description, limits = {}, threads = 1, run, stream } = options;
  if (!Array.isArray(tools)) throw new TypeError("Expected `tools` to be an array of tools");
  const names = new Set<string>();
  for (const tool of tools as readonly Tool[]) {
    if (typeof tool?.name !== "string") throw new TypeError("Expected `tools` to be an array of tools");
    if (names.has(tool.name)) throw new TypeError(`Expected \`tools\` to have distinct names, got "${tool.name}" twice`);
    names.add(tool.name);
  }
  if (typeof name !== "string" || name === "") throw new TypeError("Expected `name` to be a non-empty string");
  if (description !== undefined && typeof description !== "string") throw new TypeError("Expected `description` to be a string");
  if (run !== undefined && (typeof run !== "object" || run === null)) throw new TypeError("Expected `run` to be an object of run options");
  if (stream !== undefined && typeof stream !== "function") throw new TypeError("Expected `stream` to be a function like streamToolCalls");
  if (!Number.isInteger(threads) || threads < 1) throw new TypeError(`Expected \`threads\` to be a positive integer, got ${String(threads)}`);
  if (typeof limits !== "object" || limits === null) throw new TypeError("Expected `limits` to be an object");
  const checked: Record<string, number> = { ...DEFAULTS };
  for (const [key, value] of Object.entries(limits)) {
    if (!(key in DEFAULTS)) throw new TypeError(`Unknown option \`limits.${key}\`; expected one of ${Object.keys(DEFAULTS).join(", ")}`);
    if (value === undefined) continue;
    if (!Number.isInteger(value) || (value as number) < 1) throw new TypeError(`Expected \`limits.${key}\` to be a positive integer, got ${String(value)}`);
    checked[key] = value as number;
  }
  return { limits: checked as Limits, name, threads };
}
