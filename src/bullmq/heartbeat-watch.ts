import type { Redis } from "ioredis";
import type { Waiter } from "./waiter.js";

/**
 * The producer's side of the heartbeat: read, in one round trip, the heartbeat key of every
 * call a worker has taken, and hand `suspect` each whose key is missing although it should be
 * there: it was seen before (the worker stopped renewing it), or the worker took the job more
 * than `heartbeat` ms ago and never wrote it. `suspect` confirms against the job itself, since a
 * job that just finished lets its key lapse too.
 */
export async function watchHeartbeats(
  waiters: Iterable<Waiter>,
  commands: Redis,
  keyOf: (jobId: string) => string,
  suspect: (waiter: Waiter) => void,
): Promise<void> {
  const taken: Waiter[] = [];
  for (const w of waiters) if (w.activeAt !== undefined && !w.settled && Number.isFinite(w.heartbeat)) taken.push(w);
  if (taken.length === 0) return;
  const beats = await commands.mget(...taken.map((w) => keyOf(w.jobId)));
  const now = Date.now();
  taken.forEach((w, i) => {
    const beat = beats[i];
    if (typeof beat === "string") {
      w.beaten = true;
      if (beat !== "") w.worker = beat;
    } else if (w.beaten || now - (w.activeAt as number) > w.heartbeat) suspect(w);
  });
}

/**
 * What a call whose worker is gone answers, in words that say whether its work may have
 * happened: its heartbeat lapsed, or BullMQ failed the job as stalled (its lock lapsed first).
 */
export function deadWorkerDetail(w: Waiter, seen: "heartbeat" | "lock"): string {
  const who = w.worker === undefined ? "the worker that took it" : `its worker (${w.worker})`;
  const started = w.beaten ? "The handler had started" : "The handler may have started";
  const what =
    seen === "lock"
      ? `${who} stopped renewing its lock on the job`
      : w.beaten
        ? `${who} stopped its heartbeat for over ${w.heartbeat} ms`
        : `${who} gave no heartbeat within ${w.heartbeat} ms of taking it`;
  return `${what}: it died or lost Redis. ${started}, so its work may have happened`;
}

/** Whether BullMQ failed a job because its worker stopped renewing the lock (`maxStalledCount: 0`). */
export function isStalled(failedReason: unknown): boolean {
  return typeof failedReason === "string" && /stalled/i.test(failedReason);
}
