/** The value at quantile `q` (0..1) of `values`, nearest rank. */
export function quantile(values, q) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

export const median = (values) => quantile(values, 0.5);

export const round = (value, digits) => (Number.isFinite(value) ? Number(value.toFixed(digits)) : null);

/**
 * CPU time this process has used so far, user plus system, in ms. Unlike wall time it does not
 * count the time other processes on a shared machine take from us; it does count our own GC
 * and helper threads, which are part of what a run costs.
 */
export function cpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Heap in use after a full GC, in bytes: what is really held, not what V8 has grown into. */
export function heapAfterGc() {
  if (typeof globalThis.gc !== "function") throw new Error("run node with --expose-gc to measure memory");
  globalThis.gc();
  globalThis.gc();
  return process.memoryUsage().heapUsed;
}
