import { availableParallelism } from "node:os";
import { isAbsolute } from "node:path";
import { pathToFileURL } from "node:url";

/**
 * Memory limits of a worker thread, as `new Worker(…, { resourceLimits })` takes them. Declared
 * here so the package's types do not need `@types/node`.
 */
export interface ResourceLimits {
  readonly maxYoungGenerationSizeMb?: number;
  readonly maxOldGenerationSizeMb?: number;
  readonly codeRangeSizeMb?: number;
  readonly stackSizeMb?: number;
}

/** The options of {@link workerPool}. */
export interface WorkerPoolOptions {
  /** Calls run at once, one per thread; default one less than the cores (at least 1). */
  readonly size?: number;
  /**
   * Threads kept started beyond those running calls, so that a call never waits for a thread to
   * start (about 40 ms) when one was killed or died; default 1.
   */
  readonly spares?: number;
  /**
   * Milliseconds a handler has, after its `ctx.signal` aborted, to settle before its thread is
   * terminated and replaced; default 1000. `0` terminates at once.
   */
  readonly grace?: number;
  /** Memory limits of each thread, as `new Worker(…, { resourceLimits })` takes them; a thread past them dies (`handler_exit`). */
  readonly resourceLimits?: ResourceLimits;
  /** Modules each thread imports before it takes its first call (file URLs or absolute paths): heavy dependencies, setup. */
  readonly preload?: readonly (string | URL)[];
  /** The `control.concurrency` group of the pool's tools; default `worker-pool-<n>`. */
  readonly name?: string;
  /**
   * Calls posted to each busy thread behind the one it runs, `0` or `1`; default 1. A call posted
   * ahead waits in its thread with its deadline stopped, and the thread takes it as it answers the
   * one before, without waiting for the host: the pool's limit is `size × (1 + ahead)`. `0` posts
   * a call only to an idle thread.
   */
  readonly ahead?: 0 | 1;
}

/** {@link WorkerPoolOptions}, checked and with defaults. */
export interface PoolPlan {
  readonly size: number;
  readonly spares: number;
  readonly grace: number;
  readonly resourceLimits: ResourceLimits | undefined;
  readonly preload: readonly string[];
  readonly name: string;
  readonly ahead: 0 | 1;
}

const MAX_TIMEOUT = 2_147_483_647;
let pools = 0;

/**
 * Check the options of a pool.
 *
 * @throws {TypeError} naming the option.
 */
export function checkPoolOptions(options: WorkerPoolOptions): PoolPlan {
  if (typeof options !== "object" || options === null) throw new TypeError(`Expected the options of \`workerPool\` to be an object, got ${say(options)}`);
  const {
    size = Math.max(1, availableParallelism() - 1),
    spares = 1,
    grace = 1_000,
    resourceLimits,
    preload = [],
    name = `worker-pool-${++pools}`,
    ahead = 1,
  } = options;
  if (!(Number.isInteger(size) && size > 0)) throw new TypeError(`Expected \`size\` to be a positive integer, got ${say(size)}`);
  if (!(Number.isInteger(spares) && spares >= 0)) throw new TypeError(`Expected \`spares\` to be a non-negative integer, got ${say(spares)}`);
  if (!(typeof grace === "number" && grace >= 0 && grace <= MAX_TIMEOUT)) {
    throw new TypeError(`Expected \`grace\` to be a number of milliseconds from 0 to ${MAX_TIMEOUT}, got ${say(grace)}`);
  }
  if (resourceLimits !== undefined && (typeof resourceLimits !== "object" || resourceLimits === null)) {
    throw new TypeError(`Expected \`resourceLimits\` to be an object, got ${say(resourceLimits)}`);
  }
  if (!Array.isArray(preload)) throw new TypeError(`Expected \`preload\` to be an array of module URLs, got ${say(preload)}`);
  if (typeof name !== "string" || name === "") throw new TypeError(`Expected \`name\` to be a non-empty string, got ${say(name)}`);
  if (ahead !== 0 && ahead !== 1) throw new TypeError(`Expected \`ahead\` to be 0 or 1, got ${say(ahead)}`);
  return { size, spares, grace, resourceLimits, preload: preload.map((m: unknown) => moduleUrl(m, "preload")), name, ahead };
}

/**
 * A module's location as the worker imports it: a `file:` or `data:` URL, from a URL or an
 * absolute path. Relative paths and bare names are refused: they would resolve from toolrx's
 * own files, not the caller's.
 *
 * @throws {TypeError} naming `option`.
 */
export function moduleUrl(module: unknown, option: string, of = ""): string {
  if (module instanceof URL) return module.href;
  if (typeof module === "string") {
    if (/^(file|data):/.test(module)) return module;
    if (isAbsolute(module)) return pathToFileURL(module).href;
  }
  throw new TypeError(`Expected \`${option}\`${of} to be a file URL or an absolute path (new URL("./handler.mjs", import.meta.url)), got ${say(module)}`);
}

function say(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : String(value);
}
