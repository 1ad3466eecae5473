import type { Redis } from "ioredis";

/**
 * The worker's side of the heartbeat: while it runs a job, a key per job that lasts `ttl` ms
 * (the producer's `heartbeat`), written every third of it for all running jobs in one round
 * trip. A worker that dies (or loses Redis) stops renewing, and its producer sees the key lapse:
 * that, not BullMQ's stall check, is how a dead worker is noticed within a bound.
 *
 * A job's first write is the next of these rounds, not a command of its own as it starts: a job
 * shorter than a third of `ttl` costs no write at all. The producer's bound holds: it suspects a
 * taken job whose key it has not seen within `ttl` of the take, and the first round comes within
 * a third of that.
 */
export class JobHeartbeats {
  readonly #redis: Redis;
  readonly #keyOf: (jobId: string) => string;
  /** Written as the key's value: the producer names the worker in its answer. */
  readonly #name: string;
  readonly #beating = new Map<string, number>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #every = Infinity;

  constructor(redis: Redis, keyOf: (jobId: string) => string, name: string) {
    this.#redis = redis;
    this.#keyOf = keyOf;
    this.#name = name;
  }

  /** Beat for `jobId` every `ttl / 3` ms until {@link stop}; no heartbeat when `ttl` is not a positive finite number. */
  start(jobId: string, ttl: unknown): void {
    if (!(typeof ttl === "number" && Number.isFinite(ttl) && ttl > 0)) return;
    const ms = Math.ceil(ttl);
    this.#beating.set(jobId, ms);
    const every = Math.max(50, Math.floor(ms / 3));
    if (every < this.#every) {
      clearInterval(this.#timer);
      this.#every = every;
      this.#timer = setInterval(() => this.#renew(), every);
      this.#timer.unref?.();
    }
  }

  /**
   * Stop beating for `jobId`. The key is left to lapse rather than deleted: the job is not
   * finished in Redis until BullMQ moves it, and a key gone before that would look like a death.
   */
  stop(jobId: string): void {
    this.#beating.delete(jobId);
    if (this.#beating.size === 0) this.close();
  }

  /** Stop every heartbeat. */
  close(): void {
    this.#beating.clear();
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#every = Infinity;
  }

  #renew(): void {
    const batch = this.#redis.pipeline();
    for (const [jobId, ms] of this.#beating) batch.set(this.#keyOf(jobId), this.#name, "PX", ms);
    batch.exec().catch(() => undefined);
  }
}
