// Handlers for examples/isolated.ts. They run in worker threads, which load them by URL.

/** CPU-bound: the n-th Fibonacci number, the slow way. */
export function fib({ n }) {
  const f = (k) => (k < 2 ? k : f(k - 1) + f(k - 2));
  return { type: "ok", value: f(n) };
}

/** Stuck for good: nothing but terminating its thread stops it. */
export function stuck() {
  for (;;);
}

/** Slow but polite: stops when its signal aborts. */
export function polite(_args, ctx) {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ type: "ok", value: "finished" }), 60_000);
    ctx.signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve({ type: "error", reason: "stopped on request" });
    });
  });
}
