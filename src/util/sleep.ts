/**
 * Resolves after `ms`, or rejects with the signal's reason as soon as `signal` aborts (at once
 * when it already has); either way no timer or listener is left behind. Isomorphic, where Node's
 * `timers/promises` is not, and it rejects with the signal's own reason, not an `AbortError`
 * wrapping it, so a caller's `catch` sees what the aborter gave.
 */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
