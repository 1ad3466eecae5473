import { Subscription, type SchedulerAction, type SchedulerLike } from "rxjs";

/**
 * A scheduler whose clock moves only when the test says: `advance(ms)` runs every action that
 * falls due, in due order, awaiting microtasks between them, so promise-based work (async
 * validation, async handlers) interleaves with virtual time as it would with real timers.
 */
export interface ManualScheduler extends SchedulerLike {
  /** Move the clock forward by `ms`, running what falls due on the way. */
  advance(ms: number): Promise<void>;
  /** Move the clock by `ms` at once, running nothing: the event loop blocked by synchronous work. */
  block(ms: number): void;
  /** Actions scheduled and neither run nor cancelled. */
  readonly live: number;
}

export function manualScheduler(): ManualScheduler {
  let now = 0;
  let seq = 0;
  const pending = new Set<{ at: number; seq: number; run: () => void }>();
  const settle = async () => {
    for (let i = 0; i < 20; i++) await Promise.resolve();
  };
  return {
    now: () => now,
    schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay = 0, state?: T): Subscription {
      const subscription = new Subscription(() => pending.delete(entry));
      const entry = {
        at: now + delay,
        seq: seq++,
        run: () => {
          pending.delete(entry);
          work.call(subscription as unknown as SchedulerAction<T>, state);
        },
      };
      pending.add(entry);
      return subscription;
    },
    async advance(ms: number) {
      const end = now + ms;
      await settle();
      for (;;) {
        let next: { at: number; seq: number; run: () => void } | undefined;
        for (const e of pending) if (e.at <= end && (next === undefined || e.at < next.at || (e.at === next.at && e.seq < next.seq))) next = e;
        if (next === undefined) break;
        now = Math.max(now, next.at);
        next.run();
        await settle();
      }
      now = end;
      await settle();
    },
    block(ms: number) {
      now += ms;
    },
    get live() {
      return pending.size;
    },
  };
}
