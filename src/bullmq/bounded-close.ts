/** How long a close may wait for BullMQ to let go of its connection. */
const CLOSE_WAIT_MS = 1_000;

/**
 * `closing`, or `CLOSE_WAIT_MS`, whichever comes first; never a rejection, never a timer that
 * holds the process. `connected: false` (the client was not ready: Redis is unreachable, and
 * BullMQ would wait for a reconnect that may never come): nothing to wait for.
 */
export function boundedClose(closing: Promise<unknown>, connected: boolean): Promise<void> {
  closing.catch(() => undefined);
  if (!connected) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, CLOSE_WAIT_MS);
    timer.unref?.();
    const done = (): void => {
      clearTimeout(timer);
      resolve();
    };
    closing.then(done, done);
  });
}
