import { Worker, type Job } from "bullmq";
import type { Redis } from "ioredis";
import type { Tool, ToolExecutor, ToolResolver } from "../index.js";
import { checkConnection, checkCount, checkMs, checkQueueName, describeValue } from "./check-options.js";
import { connected, DEFAULT_PREFIX, redisClient, type RedisConnection } from "./connection.js";
import { JobHeartbeats } from "./job-heartbeats.js";
import { RedisLanes } from "./lanes.js";
import { jobProcessor, type JobReturn } from "./job-processor.js";
import { keysOf } from "./protocol.js";
import { callJobRunner } from "./run-job.js";
import { WorkerCancels } from "./worker-cancels.js";

/** Options of {@link bullmqWorker}. */
export interface BullmqWorkerOptions {
  /** Redis: a `redis://` URL or ioredis options. The worker opens its own connections. */
  connection: RedisConnection;
  /** The BullMQ queue to take calls from (no `:`). */
  queue: string;
  /** BullMQ's key prefix; default `"bull"`. */
  prefix?: string;
  /** What this worker can run: tools with handlers (the list as it is when the worker is made), or a resolver (asked per job). */
  tools: readonly Tool[] | ToolResolver;
  /** Calls run at once by this worker; default 16. */
  concurrency?: number;
  /** How handlers run; default `defaultExecutor`. Pass an isolating executor to run each in a sandbox. */
  toolExecutor?: ToolExecutor;
  /** Check arguments against the tool's schema before the handler runs, as in-process; default `true`. */
  validateArguments?: boolean;
  /** Handed to handlers as `ctx.context` (the producer's context stays on the producer); default `{}`. */
  context?: unknown;
  /**
   * How long a job's lock lasts without renewal, in ms; default 10,000. BullMQ fails the job of a
   * worker that died within about `lockDuration + stalledInterval`, so that it never runs again;
   * the producer answers its call sooner, from the worker's heartbeat (the executor's `heartbeat`).
   */
  lockDuration?: number;
  /** How often this worker looks for jobs of dead workers, in ms; default 5,000. */
  stalledInterval?: number;
  /** How long an aborted handler may take to settle before its job ends anyway, in ms; default 5,000. */
  settleGrace?: number;
  /** How long a limit lease outlives its last renewal, in ms; default 30,000 (as the executor's). */
  leaseTtl?: number;
  /** This worker's name, recorded on each job it runs (`processedBy`); default BullMQ's. */
  name?: string;
}

/** A running worker; close it to stop taking calls. */
export interface BullmqWorker {
  /** Resolves once connected and taking jobs. */
  ready(): Promise<void>;
  /** Stop taking jobs, let the running ones finish, and close the connections. */
  close(): Promise<void>;
}

/**
 * Take call jobs from `queue` and run them with `tools`, through the same validation and
 * executor as in-process. A job whose worker dies is failed, never run again (BullMQ's
 * `maxStalledCount: 0`); a cancel from the producer aborts the handler's `ctx.signal`.
 *
 * @example
 * const worker = bullmqWorker({ connection: "redis://127.0.0.1:6379", queue: "tools", tools: [weather] });
 * await worker.ready();
 * process.on("SIGTERM", () => void worker.close());
 */
export function bullmqWorker(options: BullmqWorkerOptions): BullmqWorker {
  if (typeof options !== "object" || options === null) throw new TypeError(`Expected options to be an object, got ${describeValue(options)}`);
  checkConnection(options.connection);
  const queueName = checkQueueName(options.queue);
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const concurrency = checkCount("concurrency", options.concurrency) ?? 16;
  const lockDuration = checkMs("lockDuration", options.lockDuration, 10_000);
  const stalledInterval = checkMs("stalledInterval", options.stalledInterval, 5_000);
  const settleGrace = checkMs("settleGrace", options.settleGrace, 5_000);
  const leaseTtl = checkMs("leaseTtl", options.leaseTtl, 30_000);
  const { tools, toolExecutor, validateArguments = true, context = {} } = options;
  if (typeof tools !== "object" || tools === null)
    throw new TypeError(`Expected \`tools\` to be an array of tools or a ToolResolver, got ${describeValue(tools)}`);
  if (toolExecutor !== undefined && typeof toolExecutor?.execute !== "function") {
    throw new TypeError(`Expected \`toolExecutor\` to have an \`execute\` method, got ${describeValue(toolExecutor)}`);
  }
  if (typeof validateArguments !== "boolean") throw new TypeError(`Expected \`validateArguments\` to be a boolean, got ${describeValue(validateArguments)}`);
  const runJob = callJobRunner({ tools, executor: toolExecutor, validateArguments, context, settleGrace });
  const keys = keysOf(prefix, queueName);
  /** Set once `close` has nothing left to wait for but Redis: from then on, no reconnects. */
  let stopped = false;
  const isStopped = (): boolean => stopped;
  const commands = redisClient(options.connection, "blocking", `toolrx:worker-commands:${queueName}`, isStopped);
  const subscriber = redisClient(options.connection, "blocking", `toolrx:worker-cancels:${queueName}`, isStopped);
  const lanes = new RedisLanes(commands, keys.lane, leaseTtl);
  const heartbeats = new JobHeartbeats(commands, keys.heartbeat, options.name ?? "");
  /** The jobs this worker runs, and the cancels it heard for jobs about to start. */
  const cancels = new WorkerCancels(lockDuration + stalledInterval);
  /** The handlers running now, settled or not: what `close` waits for when Redis is gone. */
  const handlers = new Set<Promise<unknown>>();
  let worker: Worker | undefined;

  // After a reconnect the channel may have lost cancels: the markers say what was cancelled meanwhile.
  const recheck = async (): Promise<void> => {
    const ids = cancels.runningIds();
    if (ids.length === 0) return;
    const markers = await commands.mget(...ids.map(keys.cancelMarker));
    markers.forEach((reason, i) => {
      if (reason !== null) cancels.heard(ids[i] as string, reason);
    });
  };

  // Pub/sub delivers at most once: a cancel lost on the way (a dropped subscriber connection, a
  // loaded Redis) would leave its handler running, and `close` waiting for it, forever. The markers
  // are the record, so they are read again while jobs run.
  let rechecks: ReturnType<typeof setInterval> | undefined;

  const process = jobProcessor({ runJob, heartbeats, lanes, cancels, handlers, readMarker: (jobId) => commands.get(keys.cancelMarker(jobId)) });

  const start = async (): Promise<void> => {
    await Promise.all([connected(commands), connected(subscriber)]);
    subscriber.on("message", (_channel: string, message: string) => {
      try {
        const { jobId, reason } = JSON.parse(message) as { jobId: unknown; reason: unknown };
        if (typeof jobId === "string" && typeof reason === "string") cancels.heard(jobId, reason);
      } catch {
        // Not ours.
      }
    });
    // ioredis re-subscribes as it reconnects: the channel counts as up from then, and is trusted
    // again once it has been up longer than a job takes from being taken to starting.
    subscriber.on("ready", () => {
      cancels.subscribed();
      void recheck().catch(() => undefined);
    });
    subscriber.on("close", () => cancels.unsubscribed());
    await subscriber.subscribe(keys.cancelChannel);
    cancels.subscribed();
    rechecks = setInterval(() => void recheck().catch(() => undefined), CANCEL_RECHECK);
    rechecks.unref?.();
    const blocking = redisClient(options.connection, "blocking", `toolrx:worker:${queueName}`, isStopped);
    // A job answered as it was opened returns its value without a promise: BullMQ awaits what its processor returns.
    worker = new Worker<unknown, JobReturn>(queueName, process as (job: Job) => Promise<JobReturn>, {
      connection: await connected(blocking),
      prefix,
      concurrency,
      lockDuration,
      stalledInterval,
      // Never run a call twice: a job whose worker died is failed, not handed to another worker.
      maxStalledCount: 0,
      maxStartedAttempts: 1,
      ...(options.name === undefined ? {} : { name: options.name }),
    });
    worker.on("error", () => undefined);
    await worker.waitUntilReady();
    ownClients.push(blocking);
  };
  const ownClients: Redis[] = [commands, subscriber];
  let started: Promise<void> | undefined;
  const ready = (): Promise<void> => (started ??= start());
  void ready().catch(() => undefined);

  return {
    ready,
    async close() {
      await started?.catch(() => undefined);
      // BullMQ's graceful close waits for Redis (its blocking connection's `end`, each job's
      // completion): with Redis gone it never resolves, and its lock timer keeps the process from
      // exiting on SIGTERM. Then the running handlers are all there is to wait for (their results
      // cannot be reported), and no connection is re-established for a close.
      const handlersSettled = (): Promise<unknown> => Promise.allSettled([...handlers]);
      if (commands.status === "ready") await Promise.race([worker?.close(), unreachable(commands).then(handlersSettled)]);
      else {
        await handlersSettled();
        stopped = true;
        await worker?.close(true);
      }
      stopped = true;
      clearInterval(rechecks);
      heartbeats.close();
      lanes.close();
      for (const client of ownClients) client.disconnect();
    },
  };
}

/** Resolves once `client` has no connection to Redis, now or later. */
function unreachable(client: Redis): Promise<void> {
  if (client.status !== "ready") return Promise.resolve();
  return new Promise((resolve) => client.once("close", () => resolve()));
}

/** How often a worker reads the cancel markers of the jobs it runs, in ms: a lost cancel is acted on within this. */
const CANCEL_RECHECK = 1_000;
