/**
 * The calls and handlers every system runs. Handlers count their invocations and how many run
 * at once, so a run that skipped, repeated or overlapped calls beyond its limit is caught.
 */

/** `n` calls to the one tool, `work`, with `{ i }` as arguments. */
export function makeCalls(n) {
  return Array.from({ length: n }, (_, i) => ({ id: `call_${i}`, name: "work", arguments: { i } }));
}

/** The same calls made one at a time as they are consumed, so the input itself holds no memory. */
export function streamCalls(n) {
  return {
    *[Symbol.iterator]() {
      for (let i = 0; i < n; i++) yield { id: `call_${i}`, name: "work", arguments: { i } };
    },
  };
}

/**
 * A handler plus what it saw: invocations, peak concurrency, start time of each call. Set
 * `probe.midpoint` to a call's `i` to have `probe.atMidpoint()` run inside that call.
 *
 * Handlers are called as `handler(args, signal?, shape?)`. `shape` turns the value into what the
 * system's tools return (toolrx's `ok(value)`) before it goes into the promise, as a user's
 * handler would write it: adapting the result outside, with a `.then`, would charge a system a
 * promise hop that no real handler makes.
 */
export function instrumented(kind, { sleepMs = 20 } = {}) {
  const probe = { calls: 0, running: 0, peak: 0, startedAt: [], midpoint: -1, atMidpoint: () => {} };
  const handlers = {
    // The tool does nothing, so what is measured is the runner.
    trivial: ({ i }, _signal, shape = same) => {
      probe.calls++;
      if (i === probe.midpoint) probe.atMidpoint();
      return shape({ i });
    },
    // Settles on the next microtask: an async tool whose work is already done, so what is
    // measured is what going asynchronous costs the runner (promise hops, the deadline timer).
    resolved: ({ i }, _signal, shape = same) => {
      probe.calls++;
      if (i === probe.midpoint) probe.atMidpoint();
      return Promise.resolve(shape({ i }));
    },
    sleep: ({ i }, _signal, shape = same) => {
      probe.calls++;
      if (++probe.running > probe.peak) probe.peak = probe.running;
      return new Promise((resolve) =>
        setTimeout(() => {
          probe.running--;
          resolve(shape({ i }));
        }, sleepMs),
      );
    },
    // Slow for the first `slowCalls` calls, synchronous after: calls queued behind slow ones.
    queued: ({ i }, _signal, shape = same) => {
      probe.calls++;
      return i < probe.slowCalls ? new Promise((resolve) => setTimeout(resolve, sleepMs, shape({ i }))) : shape({ i });
    },
    // Never settles: only a deadline ends it.
    never: ({ i }) => {
      probe.calls++;
      probe.startedAt[i] = performance.now();
      return new Promise(() => {});
    },
  };
  probe.reset = () => {
    probe.calls = 0;
    probe.running = 0;
    probe.peak = 0;
    probe.startedAt = [];
  };
  return { handler: handlers[kind], probe };
}

const same = (value) => value;
