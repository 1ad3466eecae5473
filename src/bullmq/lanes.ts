import type { Redis } from "ioredis";
import { sleep } from "../util/sleep.js";

/** A lane a call must hold a lease in: `tool:<name>`, `group:<group>` or `global`, with its limit. */
export interface LaneLimit {
  readonly lane: string;
  readonly limit: number;
}

// Redis' own clock decides expiry, so producers and workers with skewed clocks agree.
const NOW = "local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)";

// All lanes or none: a call never holds a slot of one lane while it waits for another.
const ACQUIRE = `${NOW}
local member, ttl = ARGV[1], tonumber(ARGV[2])
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  if not redis.call('ZSCORE', key, member) and redis.call('ZCARD', key) >= tonumber(ARGV[i + 2]) then return 0 end
end
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, now + ttl, member)
  redis.call('PEXPIRE', key, ttl * 2)
end
return 1`;

// XX: a lease that expired (its holder was gone too long) is not brought back.
const RENEW = `${NOW}
local member, ttl = ARGV[1], tonumber(ARGV[2])
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, 'XX', now + ttl, member)
  redis.call('PEXPIRE', key, ttl * 2)
end
return 1`;

const RELEASE = `for _, key in ipairs(KEYS) do redis.call('ZREM', key, ARGV[1]) end return 1`;

interface LaneCommands {
  toolrxLaneAcquire(n: number, ...keysAndArgs: (string | number)[]): Promise<number>;
  toolrxLaneRenew(n: number, ...keysAndArgs: (string | number)[]): Promise<number>;
  toolrxLaneRelease(n: number, ...keysAndArgs: (string | number)[]): Promise<number>;
}

/**
 * Concurrency limits held in Redis, shared by every producer and worker on the same queue: a
 * lease per job in a sorted set per lane, scored by its expiry. Holders renew their leases; a
 * holder that dies lets its leases lapse after `ttl` milliseconds.
 */
export class RedisLanes {
  readonly #redis: Redis & LaneCommands;
  readonly #keyOf: (lane: string) => string;
  readonly #ttl: number;
  readonly #held = new Map<string, readonly string[]>();
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(redis: Redis, keyOf: (lane: string) => string, ttl: number) {
    for (const [name, lua] of [
      ["toolrxLaneAcquire", ACQUIRE],
      ["toolrxLaneRenew", RENEW],
      ["toolrxLaneRelease", RELEASE],
    ] as const) {
      if (typeof (redis as unknown as Record<string, unknown>)[name] !== "function") redis.defineCommand(name, { lua });
    }
    this.#redis = redis as Redis & LaneCommands;
    this.#keyOf = keyOf;
    this.#ttl = ttl;
  }

  /** Take a lease for `member` in every lane, or none; true when taken. */
  async tryAcquire(member: string, lanes: readonly LaneLimit[]): Promise<boolean> {
    const keys = lanes.map((l) => this.#keyOf(l.lane));
    const taken = await this.#redis.toolrxLaneAcquire(keys.length, ...keys, member, this.#ttl, ...lanes.map((l) => l.limit));
    if (taken === 1) this.hold(member, lanes);
    return taken === 1;
  }

  /**
   * Wait for a lease, polling with a growing pause (5 to 100 ms, jittered) until `signal` aborts.
   *
   * @throws the signal's reason when it aborts first; Redis errors as they come.
   */
  async acquire(member: string, lanes: readonly LaneLimit[], signal: AbortSignal): Promise<void> {
    let pause = 5;
    while (!(await this.tryAcquire(member, lanes))) {
      signal.throwIfAborted();
      await sleep(pause / 2 + Math.random() * pause, signal);
      pause = Math.min(pause * 2, 100);
    }
  }

  /** Keep renewing `member`'s leases (a worker that took over a producer's job). */
  hold(member: string, lanes: readonly LaneLimit[]): void {
    if (lanes.length === 0) return;
    this.#held.set(
      member,
      lanes.map((l) => this.#keyOf(l.lane)),
    );
    if (this.#timer === undefined) {
      this.#timer = setInterval(() => this.#renewAll(), Math.max(50, Math.floor(this.#ttl / 3)));
      this.#timer.unref?.();
    }
  }

  /** Stop renewing without freeing: the other side (the worker) holds it now. */
  forget(member: string): void {
    this.#held.delete(member);
    this.#idle();
  }

  /** Free `member`'s leases. Best effort: when Redis is gone they lapse by themselves. */
  async release(member: string, lanes: readonly LaneLimit[]): Promise<void> {
    this.forget(member);
    if (lanes.length === 0) return;
    const keys = lanes.map((l) => this.#keyOf(l.lane));
    await this.#redis.toolrxLaneRelease(keys.length, ...keys, member).catch(() => undefined);
  }

  /** Stop renewing anything. */
  close(): void {
    this.#held.clear();
    this.#idle();
  }

  #idle(): void {
    if (this.#held.size === 0 && this.#timer !== undefined) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }

  #renewAll(): void {
    for (const [member, keys] of this.#held) {
      this.#redis.toolrxLaneRenew(keys.length, ...keys, member, this.#ttl).catch(() => undefined);
    }
  }
}
