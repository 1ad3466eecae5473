let cached: number | undefined;

/**
 * How many cores this runtime offers, without importing anything runtime-specific:
 * `navigator.hardwareConcurrency` in browsers, Deno, Bun and Node 21+, `os.availableParallelism`
 * through `process.getBuiltinModule` on Node 20.16+, else 2.
 */
export function availableCores(): number {
  if (cached !== undefined) return cached;
  const g = globalThis as {
    navigator?: { hardwareConcurrency?: unknown };
    process?: { getBuiltinModule?: (id: string) => { availableParallelism?: () => number } | undefined };
  };
  let n: unknown = g.navigator?.hardwareConcurrency;
  if (typeof n !== "number") {
    try {
      n = g.process?.getBuiltinModule?.("os")?.availableParallelism?.();
    } catch {
      n = undefined;
    }
  }
  cached = typeof n === "number" && Number.isInteger(n) && n > 0 ? n : 2;
  return cached;
}
