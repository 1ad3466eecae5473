import { Queue } from "bullmq";
import type { HandlerContext, HandlerResult, Tool, ToolExecutor } from "../index.js";
import { checkConnection, checkCount, checkMs, checkQueueName, describeValue } from "./check-options.js";
import { connected, DEFAULT_PREFIX, redisClient, type RedisConnection } from "./connection.js";
import { jobIdOf } from "./job-id.js";
import { callJobData } from "./call-job.js";
import { RedisLanes } from "./lanes.js";
import { lanesOf } from "./lanes-of.js";
import { boundedClose } from "./bounded-close.js";
import { PendingCalls, type Waiter } from "./pending-calls.js";
import { CALL_JOB, keysOf, type CallJobData } from "./protocol.js";
import { remoteExit } from "./remote-fate.js";
import { argumentsInputOf } from "../internal.js";

/** Options of {@link bullmqExecutor}. */
export interface BullmqExecutorOptions {
  /** Redis: a `redis://` URL or ioredis options. The executor opens its own connections. */
  connection: RedisConnection;
  /** The BullMQ queue the workers listen on (no `:`). */
  queue: string;
  /** BullMQ's key prefix; default `"bull"`. */
  prefix?: string;
  /**
   * What job ids derive from, with the call id: give the conversation's id, so that a restarted
   * process re-attaches to the jobs it had sent and two conversations never collide. Default
   * `ctx.sessionId`, else a random key per executor (no re-attachment across restarts).
   */
  key?: string | ((ctx: HandlerContext) => string | undefined);
  /** How long finished jobs (their results) stay in Redis, in ms; default 24 hours. */
  retention?: number;
  /**
   * A backstop deadline the worker enforces itself, in ms from when the job was sent (on this
   * machine's clock): the handler is aborted even if the cancel never reaches the worker.
   * Default none; set it to the run's `toolTimeout`.
   */
  jobTimeout?: number;
  /** At most this many calls at once across every producer on this queue; default none. */
  globalConcurrency?: number;
  /** How long a limit lease outlives its last renewal, in ms; default 30,000. */
  leaseTtl?: number;
  /** How often calls with no news are checked against Redis directly, in ms; default 5,000. */
  reconcileInterval?: number;
  /**
   * How long the heartbeat a worker keeps on each job it runs lasts without renewal, in ms;
   * default 5,000 (renewed every third of it). A worker that dies mid-call is answered
   * `handler_exit` within about this plus 1 s. `Infinity`: no heartbeat, for handlers that block
   * their worker's event loop longer (BullMQ's stall check still fails their jobs, later).
   */
  heartbeat?: number;
}

/** A {@link ToolExecutor} that runs calls on BullMQ workers; close it when done. */
export interface BullmqExecutor extends ToolExecutor {
  /** Resolves once connected to Redis (the first `execute` waits for it anyway). */
  ready(): Promise<void>;
  /** Stop listening and close the connections; pending calls answer `handler_exit`. */
  close(): Promise<void>;
  /**
   * A call sent again with the same id (and `key`) re-attaches to its job instead of running it
   * twice: the agent's journal sends a call cut off by a restart again on this executor.
   */
  readonly reattaches: true;
}

const DAY = 86_400_000;

/**
 * Run each call as a BullMQ job on a worker fleet ({@link bullmqWorker}): one job per call
 * attempt, its id derived from `key` and the call id. The runner's deadline, unsubscribe and
 * `opts.signal` cancel the job: a waiting one is removed, an active one's `ctx.signal` aborts on
 * the worker. A worker that dies is answered `handler_exit` once its heartbeat lapses (about
 * `heartbeat` + 1 s); Redis that becomes unreachable, at once.
 *
 * @example
 * const executor = bullmqExecutor({ connection: "redis://127.0.0.1:6379", queue: "tools", key: conversationId });
 * await runToolCalls(calls, tools, { toolExecutor: executor }); // handlers run on the workers
 * await executor.close();
 */
export function bullmqExecutor(options: BullmqExecutorOptions): BullmqExecutor {
  if (typeof options !== "object" || options === null) throw new TypeError(`Expected options to be an object, got ${describeValue(options)}`);
  checkConnection(options.connection);
  const queueName = checkQueueName(options.queue);
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const retention = checkMs("retention", options.retention, DAY);
  const jobTimeout = checkMs("jobTimeout", options.jobTimeout, Infinity);
  const leaseTtl = checkMs("leaseTtl", options.leaseTtl, 30_000);
  const reconcileInterval = checkMs("reconcileInterval", options.reconcileInterval, 5_000);
  const heartbeat = checkMs("heartbeat", options.heartbeat, 5_000);
  const globalConcurrency = checkCount("globalConcurrency", options.globalConcurrency);
  const { key } = options;
  if (key !== undefined && typeof key !== "string" && typeof key !== "function") {
    throw new TypeError(`Expected \`key\` to be a string or a function of the call's context, got ${describeValue(key)}`);
  }
  const ownKey = globalThis.crypto.randomUUID();
  const keyOf = (ctx: HandlerContext): string => (typeof key === "function" ? key(ctx) : key) ?? ctx.sessionId ?? ownKey;
  const keys = keysOf(prefix, queueName);
  const commands = redisClient(options.connection, "failFast", `toolrx:producer:${queueName}`);
  const lanes = new RedisLanes(commands, keys.lane, leaseTtl);
  let queue: Queue | undefined;
  let pending: PendingCalls | undefined;
  let closed = false;

  const start = async (): Promise<void> => {
    await connected(commands);
    queue = new Queue(queueName, { connection: commands, prefix });
    // Without a listener BullMQ prints each connection error (ECONNREFUSED while Redis is down) to
    // stderr; the calls already answer for it.
    queue.on("error", () => undefined);
    pending = new PendingCalls({ queue, commands, connection: options.connection, prefix, keys, lanes, reconcileInterval, retention, heartbeat });
    await pending.start();
  };
  let started: Promise<void> | undefined;
  const ready = (): Promise<void> => (started ??= start());

  const send = async (waiter: Waiter, data: CallJobData): Promise<void> => {
    const at = waiter;
    if (waiter.lanes.length > 0) await lanes.acquire(waiter.jobId, waiter.lanes, waiter.signal);
    if (waiter.settled) return;
    // Cancelled while its lease came: never sent, so its cancel (which saw it unsent) needs no publish.
    waiter.signal.throwIfAborted();
    const age = Math.ceil(retention / 1000);
    // The offline queue is off: a command now would fail unsent, so say so truthfully.
    if (commands.status !== "ready") throw new Error(`Redis is unreachable (connection ${commands.status})`);
    // From here on a failure leaves the job's fate unknown: the command may have reached Redis.
    waiter.sent = true;
    const adding = (queue as Queue).add(CALL_JOB, data, { jobId: at.jobId, attempts: 1, removeOnComplete: { age }, removeOnFail: { age } });
    waiter.adding = adding.then(
      () => undefined,
      () => undefined,
    );
    await adding;
    waiter.added = true;
  };

  return {
    reattaches: true,
    ready,
    async close() {
      closed = true;
      await started?.catch(() => undefined);
      await pending?.close();
      lanes.close();
      // Disconnected first and bounded, as the events reader: closing must not wait for Redis.
      const up = commands.status === "ready";
      commands.disconnect();
      if (queue !== undefined) await boundedClose(queue.close(), up);
      commands.disconnect();
    },
    async execute(tool: Tool, _args: Record<string, unknown>, ctx: HandlerContext): Promise<HandlerResult> {
      const call = ctx.toolCall;
      // The runner's context says which attempt this is; each attempt is a job of its own.
      const given = (ctx as unknown as { attempt?: unknown }).attempt;
      const attempt = typeof given === "number" && given >= 1 ? given : 1;
      const callKey = keyOf(ctx);
      const jobId = jobIdOf(callKey, call.id, attempt);
      const at = { toolName: tool.name, toolCallId: call.id, jobId };
      if (closed) return remoteExit("not_started", "the executor is closed", at);
      try {
        await ready();
      } catch (cause) {
        return remoteExit("not_started", "Redis is unreachable", at, cause);
      }
      const calls = pending as PendingCalls;
      const same = calls.get(jobId);
      if (same !== undefined) return same.promise;
      const lanes = lanesOf(tool, globalConcurrency);
      // What the attempt runs with (a repair's or a hook's rewrite), as the schema took it: the
      // worker validates it again, so its handler gets what an in-process one would.
      const input = argumentsInputOf(ctx) ?? call.arguments;
      const data = callJobData(call, input, ctx, jobTimeout === Infinity ? Infinity : Date.now() + jobTimeout, heartbeat, lanes);
      // Checked before anything is sent: a call JSON cannot carry (a bigint, a cycle) never left.
      const unsendable = jsonProblem(data);
      if (unsendable !== undefined) return remoteExit("not_started", `the call was not sent: its arguments cannot be carried as JSON (${unsendable})`, at);
      const waiter = calls.open(jobId, at, lanes, ctx);
      send(waiter, data).catch((cause: unknown) => {
        if (!waiter.sent) {
          const why = waiter.signal.aborted ? "cancelled before it was sent" : "Redis is unreachable";
          calls.settle(waiter, remoteExit("not_started", why, at, cause), "release");
        } else calls.settle(waiter, remoteExit("unknown", "Redis is unreachable", at, cause), "forget");
      });
      return waiter.promise;
    },
  };
}

/** What JSON cannot hold in `value` (its first line), or `undefined` when it can be sent. */
function jsonProblem(value: unknown): string | undefined {
  try {
    JSON.stringify(value);
    return undefined;
  } catch (thrown) {
    return (thrown instanceof Error ? thrown.message : String(thrown)).split("\n")[0];
  }
}
