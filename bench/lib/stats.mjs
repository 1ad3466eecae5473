/** The value at quantile `q` (0..1) of `values`, nearest rank. */
export function quantile(values, q) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

export const median = (values) => quantile(values, 0.5);

/** Peak resident set size of this process so far, in MB. */
export function peakRssMb() {
  return process.resourceUsage().maxRSS / 1024;
}

export const round = (value, digits) => (Number.isFinite(value) ? Number(value.toFixed(digits)) : null);
