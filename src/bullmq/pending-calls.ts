import { Job, QueueEvents, type Queue } from "bullmq";
import type { Redis } from "ioredis";
import { reportFate, type HandlerContext, type HandlerResult, type ProgressUpdate } from "../index.js";
import { connected, redisClient, type RedisConnection } from "./connection.js";
import type { LaneLimit, RedisLanes } from "./lanes.js";
import type { CallJobReturn, QueueKeys } from "./protocol.js";
import { remoteExit } from "./remote-fate.js";
import { decodeJobResult } from "./result-codec.js";

/** One call the executor waits on. */
export interface Waiter {
  readonly jobId: string;
  readonly toolName: string;
  readonly toolCallId: string;
  readonly lanes: readonly LaneLimit[];
  readonly promise: Promise<HandlerResult>;
  /** Aborted with the runner's reason when the runner stops waiting: stops a lease wait. */
  readonly signal: AbortSignal;
  /** The add was attempted: from then on the job may exist. */
  sent: boolean;
  /** The add succeeded. */
  added: boolean;
  settled: boolean;
  checkedAt: number;
  progress(update: ProgressUpdate): void;
  /** Tell the runner the cancel was sent to the worker: what the handler does next is its own. */
  cancelSent(): void;
  resolve(result: HandlerResult): void;
  detach(): void;
}

interface Deps {
  readonly queue: Queue;
  readonly commands: Redis;
  readonly connection: RedisConnection;
  readonly prefix: string;
  readonly keys: QueueKeys;
  readonly lanes: RedisLanes;
  readonly reconcileInterval: number;
  readonly retention: number;
}

/**
 * The calls one executor waits on, and the one `QueueEvents` reader that answers them all. Every
 * answer goes through `settle`, which answers a call once: a late event, a reconcile and a lost
 * connection may race, and only the first counts.
 */
export class PendingCalls {
  readonly #deps: Deps;
  readonly #waiters = new Map<string, Waiter>();
  #events: QueueEvents | undefined;
  #eventsClient: Redis | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;
  #closing = false;

  constructor(deps: Deps) {
    this.#deps = deps;
  }

  /** Start reading the queue's events from now, before any job is sent, so none is missed. */
  async start(): Promise<void> {
    const { commands, connection, keys, queue, prefix } = this.#deps;
    const last = await commands.xrevrange(keys.events, "+", "-", "COUNT", 1);
    const client = await connected(redisClient(connection, "blocking", `toolrx:events:${queue.name}`));
    this.#eventsClient = client;
    const events = new QueueEvents(queue.name, { connection: client, prefix, lastEventId: last[0]?.[0] ?? "0-0" });
    this.#events = events;
    events.on("error", () => undefined);
    events.on("completed", ({ jobId, returnvalue }) => this.#completed(jobId, returnvalue));
    events.on("failed", ({ jobId, failedReason }) => {
      const w = this.#waiters.get(jobId);
      if (w !== undefined) this.settle(w, remoteExit("failed", `the worker failed the job: ${failedReason}`, w), "release");
    });
    events.on("progress", ({ jobId, data }) => this.#waiters.get(jobId)?.progress(data as ProgressUpdate));
    // Another process (this conversation before a restart) had sent it: it may be done already.
    events.on("duplicated", ({ jobId }) => {
      const w = this.#waiters.get(jobId);
      if (w !== undefined) void this.check(w);
    });
    events.on("removed", ({ jobId }) => {
      const w = this.#waiters.get(jobId);
      if (w !== undefined) this.settle(w, remoteExit("not_started", "the job was removed from the queue before it finished", w), "release");
    });
    await events.waitUntilReady();
    // Redis gone: answer now rather than at each call's deadline; a result that arrives later is dropped.
    const lost = (): void => {
      if (this.#closing) return;
      for (const w of [...this.#waiters.values()])
        this.settle(w, remoteExit(w.sent ? "unknown" : "not_started", "the connection to Redis was lost", w), "forget");
    };
    client.on("close", lost);
    commands.on("close", lost);
    this.#timer = setInterval(() => this.#reconcile(), this.#deps.reconcileInterval);
    this.#timer.unref?.();
  }

  get(jobId: string): Waiter | undefined {
    return this.#waiters.get(jobId);
  }

  /** Wait on `jobId` for the call behind `ctx`; the runner aborting `ctx.signal` cancels the job. */
  open(jobId: string, at: { toolName: string; toolCallId: string }, lanes: readonly LaneLimit[], ctx: HandlerContext): Waiter {
    let resolve!: (result: HandlerResult) => void;
    const promise = new Promise<HandlerResult>((r) => (resolve = r));
    const local = new AbortController();
    const signal = ctx.signal;
    const onAbort = (): void => {
      local.abort(signal.reason);
      void this.#cancel(waiter, signal.reason);
    };
    const waiter: Waiter = {
      jobId,
      ...at,
      lanes,
      promise,
      signal: local.signal,
      sent: false,
      added: false,
      settled: false,
      checkedAt: Date.now(),
      progress(update) {
        if (typeof update === "object" && update !== null && typeof update.progress === "number") {
          try {
            ctx.progress(update);
          } catch {
            // The runner refuses progress once the call is answered; nothing to do.
          }
        }
      },
      cancelSent: () => reportFate(ctx, "cancel_sent"),
      resolve,
      detach: () => signal.removeEventListener("abort", onAbort),
    };
    this.#waiters.set(jobId, waiter);
    signal.addEventListener("abort", onAbort, { once: true });
    return waiter;
  }

  /**
   * Answer a call once. `leases`: `release` when no worker holds the job any more (it failed or
   * never ran), `forget` when the worker frees them itself (or they lapse).
   */
  settle(w: Waiter, result: HandlerResult, leases: "release" | "forget"): void {
    if (w.settled) return;
    w.settled = true;
    this.#waiters.delete(w.jobId);
    w.detach();
    if (leases === "release") void this.#deps.lanes.release(w.jobId, w.lanes);
    else this.#deps.lanes.forget(w.jobId);
    w.resolve(result);
  }

  /** Read the job from Redis and answer from it when it is finished (re-attachment, lost events). */
  async check(w: Waiter): Promise<void> {
    const job = await Job.fromId(this.#deps.queue, w.jobId).catch(() => null);
    if (w.settled || job === null) return;
    if (job === undefined) {
      if (w.added) this.settle(w, remoteExit("not_started", "the job is gone from Redis (removed, or past its retention)", w), "release");
      return;
    }
    if (!job.finishedOn) return;
    if (job.failedReason && job.returnvalue == null) this.settle(w, remoteExit("failed", `the worker failed the job: ${job.failedReason}`, w), "release");
    else this.#completed(w.jobId, job.returnvalue);
  }

  /** Stop reading; every call still waiting answers `handler_exit`. */
  async close(): Promise<void> {
    this.#closing = true;
    clearInterval(this.#timer);
    for (const w of [...this.#waiters.values()]) this.settle(w, remoteExit(w.sent ? "unknown" : "not_started", "the executor was closed", w), "forget");
    // With Redis unreachable, QueueEvents.close() waits for a reconnect that may never come: its
    // client is disconnected first, and the close is waited for only while Redis answered.
    const up = this.#eventsClient?.status === "ready";
    this.#eventsClient?.disconnect();
    if (this.#events !== undefined) await boundedClose(this.#events.close(), up);
    this.#eventsClient?.disconnect();
  }

  #completed(jobId: string, returned: unknown): void {
    const w = this.#waiters.get(jobId);
    if (w === undefined) return;
    const value = returned as Partial<CallJobReturn> & { result?: unknown; cancelled?: string; started?: boolean };
    if (value?.v === 1 && typeof value.cancelled === "string") {
      const state = value.started === true ? "aborted" : "not_started";
      this.settle(w, remoteExit(state, `cancelled on the worker: ${value.cancelled}`, w), "forget");
      return;
    }
    let result: HandlerResult;
    try {
      if (value?.v !== 1) throw new TypeError(`unknown job return ${JSON.stringify(returned)}`);
      result = decodeJobResult(value.result);
    } catch (cause) {
      result = remoteExit("unknown", "the worker's answer could not be read", w, cause);
    }
    this.settle(w, result, "forget");
  }

  async #cancel(w: Waiter, reason: unknown): Promise<void> {
    if (w.settled) return;
    const { commands, queue, keys, retention } = this.#deps;
    const text = reasonText(reason);
    try {
      // The marker first: a worker that takes the job from now on sees it before running it.
      await commands.set(keys.cancelMarker(w.jobId), text, "PX", Math.min(retention, 2_147_483_647));
      if (!w.sent || w.settled) return;
      const removed = await queue.remove(w.jobId);
      if (removed === 1) this.settle(w, remoteExit("not_started", `cancelled before a worker took it: ${text}`, w), "release");
      else {
        await commands.publish(keys.cancelChannel, JSON.stringify({ jobId: w.jobId, reason: text }));
        w.cancelSent();
      }
    } catch {
      // Redis is unreachable: the lost-connection path answers the call.
    }
  }

  #reconcile(): void {
    const now = Date.now();
    for (const w of this.#waiters.values()) {
      if (w.added && now - w.checkedAt >= this.#deps.reconcileInterval) {
        w.checkedAt = now;
        void this.check(w);
      }
    }
  }
}

function reasonText(reason: unknown): string {
  if (reason instanceof Error) return reason.message;
  return typeof reason === "string" ? reason : "cancelled";
}

/** How long a close may wait for BullMQ to let go of its connection when Redis is unreachable. */
const CLOSE_WAIT_MS = 1_000;

/**
 * `closing`, or `CLOSE_WAIT_MS`, whichever comes first; never a rejection, never a timer that
 * holds the process. `connected: false` (the client was not ready): nothing to wait for.
 */
export function boundedClose(closing: Promise<unknown>, connected: boolean): Promise<void> {
  closing.catch(() => undefined);
  if (!connected) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, CLOSE_WAIT_MS);
    timer.unref?.();
    closing.then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      () => {
        clearTimeout(timer);
        resolve();
      },
    );
  });
}
