import { Job, QueueEvents, type Queue } from "bullmq";
import type { Redis } from "ioredis";
import type { HandlerContext, HandlerResult, ProgressUpdate } from "../index.js";
import { boundedClose } from "./bounded-close.js";
import { connected, redisClient, type RedisConnection } from "./connection.js";
import { deadWorkerDetail, isStalled, watchHeartbeats } from "./heartbeat-watch.js";
import type { LaneLimit, RedisLanes } from "./lanes.js";
import type { QueueKeys } from "./protocol.js";
import { readJobReturn } from "./call-job.js";
import { remoteExit } from "./remote-fate.js";
import { decodeJobResult } from "./result-codec.js";
import { openWaiter, type Waiter } from "./waiter.js";

export type { Waiter } from "./waiter.js";

interface Deps {
  readonly queue: Queue;
  readonly commands: Redis;
  readonly connection: RedisConnection;
  readonly prefix: string;
  readonly keys: QueueKeys;
  readonly lanes: RedisLanes;
  readonly reconcileInterval: number;
  readonly retention: number;
  /** How long a worker's heartbeat on a job lasts without renewal, in ms (`Infinity`: none). */
  readonly heartbeat: number;
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
  #beats: ReturnType<typeof setInterval> | undefined;
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
      if (w !== undefined) this.#failed(w, failedReason);
    });
    events.on("progress", ({ jobId, data }) => this.#waiters.get(jobId)?.progress(data as ProgressUpdate));
    events.on("active", ({ jobId }) => {
      const w = this.#waiters.get(jobId);
      if (w !== undefined) w.activeAt ??= Date.now();
    });
    // Another process (this conversation before a restart) had sent it: it may be done already.
    events.on("duplicated", ({ jobId }) => {
      const w = this.#waiters.get(jobId);
      if (w !== undefined) void this.check(w);
    });
    events.on("removed", ({ jobId, prev }) => {
      const w = this.#waiters.get(jobId);
      if (w !== undefined) this.#removed(w, prev);
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
    if (Number.isFinite(this.#deps.heartbeat)) {
      const { commands: redis, keys: k } = this.#deps;
      const suspect = (w: Waiter): void => void this.#suspect(w);
      this.#beats = setInterval(
        () => void watchHeartbeats(this.#waiters.values(), redis, k.heartbeat, suspect).catch(() => undefined),
        heartbeatCheck(this.#deps.heartbeat),
      );
      this.#beats.unref?.();
    }
  }

  get(jobId: string): Waiter | undefined {
    return this.#waiters.get(jobId);
  }

  /** Wait on `jobId` for the call behind `ctx`; the runner aborting `ctx.signal` cancels the job. */
  open(jobId: string, at: { toolName: string; toolCallId: string }, lanes: readonly LaneLimit[], ctx: HandlerContext): Waiter {
    const waiter = openWaiter(jobId, at, lanes, this.#deps.heartbeat, ctx, (w, reason) => void this.#cancel(w, reason));
    this.#waiters.set(jobId, waiter);
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
    if (!job.finishedOn) {
      // A worker took it, though its `active` event was missed (or came before this process listened).
      if (job.processedOn) w.activeAt ??= Date.now();
      return;
    }
    if (job.failedReason && job.returnvalue == null) this.#failed(w, job.failedReason);
    else this.#completed(w.jobId, job.returnvalue);
  }

  /** Stop reading; every call still waiting answers `handler_exit`. */
  async close(): Promise<void> {
    this.#closing = true;
    clearInterval(this.#timer);
    clearInterval(this.#beats);
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
    let result: HandlerResult;
    try {
      const read = readJobReturn(returned);
      if ("cancelled" in read) {
        const state = read.started ? "aborted" : "not_started";
        this.settle(w, remoteExit(state, `cancelled on the worker: ${read.cancelled}`, w), "forget");
        return;
      }
      result = decodeJobResult(read.result);
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
      // The marker first: the record a worker reads when its cancel channel was down.
      await commands.set(keys.cancelMarker(w.jobId), text, "PX", Math.min(retention, 2_147_483_647));
      if (!w.sent || w.settled) return;
      // Removed or published only once the job exists: a remove before the add lands finds
      // nothing, and a publish then reaches no worker, since none can have taken it yet. After
      // it, a failed remove means a worker took the job, before the publish: the worker hears it.
      await w.adding;
      if (w.settled) return;
      // A remove also answers 1 for a job that has finished: whether it ran, only the event
      // stream says in order (its `completed`, with the result, comes before its `removed`), so
      // the `removed` event answers the call, not this reply.
      // Named before the reply: the `removed` event comes on another connection, and may be read first.
      w.removedBy = text;
      if ((await queue.remove(w.jobId)) === 1) return;
      w.removedBy = undefined;
      // The worker aborts the handler and answers the job with what it settles with (or `aborted`
      // after its grace): that answer is the call's late settlement, reported as in-process.
      await commands.publish(keys.cancelChannel, JSON.stringify({ jobId: w.jobId, reason: text }));
    } catch {
      // Redis is unreachable: the lost-connection path answers the call.
    }
  }

  /**
   * The job left the queue: answered `not_started` if it left from a state no worker had taken
   * it in. Removed after it ran (its result event lost to the stream's trimming), it is `unknown`.
   */
  #removed(w: Waiter, prev: string | undefined): void {
    const ran = prev === "active" || prev === "completed" || prev === "failed";
    if (ran) {
      this.settle(w, remoteExit("unknown", `the job was removed after a worker took it (${prev}), its answer unread`, w), "forget");
      return;
    }
    const why = w.removedBy === undefined ? "the job was removed from the queue before it finished" : `cancelled before a worker took it: ${w.removedBy}`;
    this.settle(w, remoteExit("not_started", why, w), "release");
  }

  /** A call's heartbeat is missing: answer from the job if it finished meanwhile, else its worker is gone. */
  async #suspect(w: Waiter): Promise<void> {
    const job = await Job.fromId(this.#deps.queue, w.jobId).catch(() => null);
    if (w.settled || job === null) return;
    if (job === undefined || job.finishedOn) return this.check(w);
    w.killed();
    this.settle(w, remoteExit("failed", deadWorkerDetail(w, "heartbeat"), w), "release");
  }

  /** BullMQ failed the job: a stalled one (its worker died) is said in toolrx's words. */
  #failed(w: Waiter, failedReason: string): void {
    const detail = isStalled(failedReason) ? deadWorkerDetail(w, "lock") : `the worker failed the job: ${failedReason}`;
    this.settle(w, remoteExit("failed", detail, w), "release");
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

/** How often the heartbeats are read: a third of their life, at most once a second, at least every 50 ms. */
function heartbeatCheck(heartbeat: number): number {
  return Math.max(50, Math.min(1_000, Math.floor(heartbeat / 3)));
}
