import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config, firstValueFrom, Subject, tap, toArray } from "rxjs";
import type { Redis } from "ioredis";
import { isToolError, runToolCalls, streamToolCalls, type CallReport, type ToolCall, type ToolEvent } from "../../src/index.js";
import { bullmqExecutor, jobIdOf, type BullmqExecutor } from "../../src/bullmq/index.js";
import { PIXEL, testTools as tools } from "./fixtures/tools.js";
import { freshQueue, inspector, runCounts, startWorker, until, type Child } from "./fleet.js";
import { redisUnavailable, startRedis, type TestRedis } from "./redis.js";
import { must } from "../support/must.js";

describe.skipIf(redisUnavailable !== undefined)("bullmqExecutor", () => {
  let redis: TestRedis;
  let client: Redis;
  let queue: string;
  let worker: Child;
  let executor: BullmqExecutor;

  beforeAll(async () => {
    redis = await startRedis();
    client = inspector(redis.url);
    queue = freshQueue("exec");
    worker = await startWorker(redis.url, queue, "w1", 2);
    executor = bullmqExecutor({ connection: redis.url, queue, key: "conv-1" });
    await executor.ready();
  }, 30_000);

  afterAll(async () => {
    await executor?.close();
    await worker?.kill("SIGTERM");
    client?.disconnect();
    await redis?.stop();
  });

  const calls: ToolCall[] = [
    { id: "a", name: "boom", arguments: {} },
    { id: "b", name: "refuse", arguments: {} },
    { id: "c", name: "stop", arguments: {} },
    { id: "d", name: "bad", arguments: {} },
    { id: "e", name: "progress", arguments: {} },
    { id: "f", name: "echo", arguments: { text: 3 } },
    { id: "f2", name: "chart", arguments: {} },
  ];
  /** What the comparison keeps of an event: its content, not its timing. */
  const shape = (e: ToolEvent): unknown => {
    if (e.type !== "tool_execution_completed") return e;
    const { result, ...rest } = e;
    return { ...rest, result: result.type === "error" ? { type: "error", reason: String(result.reason) } : result };
  };

  describe("when handlers run on a worker", () => {
    it("answers every call as in-process: the same messages, halt and events per call", async () => {
      const local = await runToolCalls(calls, tools(queue, "w1"));
      const remote = await runToolCalls(calls, tools(queue, "producer"), { toolExecutor: executor });
      expect(remote).toEqual(local);

      const localEvents = await firstValueFrom(streamToolCalls(calls, tools(queue, "w1")).pipe(toArray()));
      const remoteEvents = await firstValueFrom(streamToolCalls(calls, tools(queue, "p"), { toolExecutor: executor }).pipe(toArray()));
      const byCall = (events: ToolEvent[]) => calls.map((c) => events.filter((e) => e.toolCallId === c.id).map(shape));
      expect(byCall(remoteEvents)).toEqual(byCall(localEvents));
    });

    it("keeps a ToolError's class and reason across Redis", async () => {
      let seen: unknown;
      await runToolCalls([{ id: "g", name: "boom", arguments: {} }], tools(queue, "p"), {
        toolExecutor: executor,
        onToolError: (_call, e) => {
          seen = e;
          return { continue: "ok" };
        },
      });
      expect(isToolError(seen)).toBe(true);
      expect(seen).toMatchObject({ reason: "handler_raised", toolName: "boom", toolCallId: "g", cause: { message: "kaput" } });
    });

    it("validates arguments on the worker as in-process", async () => {
      const local = await runToolCalls([{ id: "h", name: "echo", arguments: { text: 3 } }], tools(queue, "w1"));
      const remote = await runToolCalls([{ id: "h", name: "echo", arguments: { text: 3 } }], tools(queue, "p"), {
        toolExecutor: executor,
        validateArguments: false,
      });
      expect(remote.messages).toEqual(local.messages);
      expect((await runCounts(client, queue)).h).toBeUndefined();
    });

    it("hands the handler zod's output, a stable idempotency key and the attempt", async () => {
      const { messages } = await runToolCalls([{ id: "i:1", name: "echo", arguments: { text: "ab" } }], tools(queue, "p"), { toolExecutor: executor });
      expect(JSON.parse(must(messages[0]).content)).toEqual({ text: "ab", worker: "w1", idempotencyKey: "toolrx:conv-1|i%3A1", attempt: 1 });
    });

    // Issue 41: the worker process (set up as docs/distributed.md shows, no onUnhandledError) died
    // of the TypeError a malformed update is reported with, and the call was answered handler_exit.
    it("drops a malformed progress update as in-process, reporting it to the producer's host, and the worker lives on", async () => {
      const unhandled: unknown[] = [];
      const previous = config.onUnhandledError;
      config.onUnhandledError = (e) => unhandled.push(e);
      try {
        const reports: CallReport[] = [];
        const call = { id: "bp", name: "bad_progress", arguments: {} };
        const remote = await runToolCalls([call], tools(queue, "p"), { toolExecutor: executor, onCallReport: (r) => reports.push(r) });
        const local = await runToolCalls([call], tools(queue, "w1"));
        expect(remote).toEqual(local);
        expect(remote.messages[0]).toMatchObject({ content: "done", isError: false });
        expect(reports).toEqual([]);
        // One report from each run: the remote one reaches this host as the local one does.
        await until(() => unhandled.length === 2, 5_000);
        for (const e of unhandled) expect(String(e)).toContain("Expected `ctx.progress` of tool bad_progress (call bp) to get");
        expect(worker.process.exitCode).toBeNull();
        const after = await runToolCalls([{ id: "after", name: "echo", arguments: { text: "still here" } }], tools(queue, "p"), { toolExecutor: executor });
        expect(after.messages[0]?.isError).toBe(false);
      } finally {
        config.onUnhandledError = previous;
      }
    });

    it("brings the remote handler's progress and log lines to onCallReport", async () => {
      const reports: CallReport[] = [];
      await runToolCalls([{ id: "j", name: "progress", arguments: {} }], tools(queue, "p"), { toolExecutor: executor, onCallReport: (r) => reports.push(r) });
      expect(reports).toEqual([
        { type: "progress", index: 0, toolCallId: "j", toolName: "progress", attempt: 1, progress: 1, total: 2, message: "half" },
        { type: "progress", index: 0, toolCallId: "j", toolName: "progress", attempt: 1, progress: 2, total: 2, data: { partial: true } },
        { type: "log", index: 0, toolCallId: "j", toolName: "progress", attempt: 1, level: "notice", data: "all pages in", logger: "pages" },
      ]);
    });
  });

  describe("when a result carries content parts", () => {
    it("brings them from the worker to the message, as in-process", async () => {
      const call: ToolCall = { id: "pp", name: "chart", arguments: {} };
      const remote = await runToolCalls([call], tools(queue, "p"), { toolExecutor: executor });
      expect(remote.messages[0]?.parts).toEqual([{ type: "image", mediaType: "image/png", data: PIXEL }]);
      expect(remote).toEqual(await runToolCalls([call], tools(queue, "w1")));
    });
  });

  describe("when a tool retries", () => {
    it("runs its handler once per attempt, each job with the producer's attempt number", async () => {
      const reports: CallReport[] = [];
      const { messages } = await runToolCalls([{ id: "rt", name: "flaky", arguments: {} }], tools(queue, "p"), {
        toolExecutor: executor,
        onCallReport: (r) => reports.push(r),
      });
      expect(messages[0]).toMatchObject({ isError: true, content: expect.stringContaining("flaky") });
      expect(await client.lrange(`${queue}:attempts`, 0, -1)).toEqual(["rt 1", "rt 2", "rt 3"]);
      expect(reports.filter((r) => r.type === "attempt_failed").map((r) => r.attempt)).toEqual([1, 2]);
    });
  });

  describe("when the arguments cannot be carried as JSON", () => {
    it("answers handler_exit not_started, naming the problem, and sends nothing", async () => {
      const cyclic: Record<string, unknown> = { text: "x" };
      cyclic.self = cyclic;
      const answers: unknown[] = [];
      const { messages } = await runToolCalls(
        [
          { id: "big", name: "echo", arguments: { text: "x", n: 10n } },
          { id: "cyc", name: "echo", arguments: cyclic },
        ],
        tools(queue, "p"),
        {
          toolExecutor: executor,
          onToolError: (_call, e) => {
            answers.push(e);
            return { continue: "-" };
          },
        },
      );
      expect(messages.map((m) => m.content)).toEqual(["-", "-"]);
      expect(answers).toEqual([expect.any(Error), expect.any(Error)]);
      for (const e of answers) {
        expect(e).toMatchObject({ reason: "handler_exit", metadata: { remoteState: "not_started" } });
        expect((e as Error).message).toContain("cannot be carried as JSON");
        expect((e as Error).message).not.toContain("Redis");
      }
      expect((answers[0] as Error).message).toContain("BigInt");
      expect((answers[1] as Error).message).toContain("circular");
      expect(await client.exists(`bull:${queue}:${jobIdOf("conv-1", "big", 1)}`)).toBe(0);
    });
  });

  describe("when a call's deadline passes", () => {
    it("answers timeout, aborts the remote handler's ctx.signal, and reports what it settled with late", async () => {
      const reports: CallReport[] = [];
      const { messages } = await runToolCalls([{ id: "k", name: "slow", arguments: { ms: 20_000 } }], tools(queue, "p"), {
        toolExecutor: executor,
        toolTimeout: 500,
        onCallReport: (r) => reports.push(r),
      });
      expect(messages[0]).toMatchObject({ isError: true, content: expect.stringContaining("timeout") });
      await until(async () => (await client.lrange(`${queue}:aborted`, 0, -1)).some((line) => line.startsWith("k ")));
      await until(() => reports.some((r) => r.type === "late_settlement"));
      // The job was running: the cancel aborted it on its worker, which answers with what the handler settled with.
      expect(reports.find((r) => r.type === "late_settlement")).toMatchObject({
        abandoned: "timeout",
        settled: true,
        result: { type: "error", reason: { reason: "handler_raised", cause: { message: expect.stringContaining("cancelled by the producer") } } },
      });
      expect(messages).toHaveLength(1);
    });
  });

  describe("when a handler settles after its deadline", () => {
    it("reports its late settlement with its result, after the after-hooks, as in-process", async () => {
      const observe = async (executorOf: BullmqExecutor | undefined) => {
        const reports: CallReport[] = [];
        const seen: unknown[] = [];
        const { messages } = await runToolCalls([{ id: "late", name: "stubborn", arguments: { ms: 900 } }], tools(queue, "p"), {
          ...(executorOf === undefined ? {} : { toolExecutor: executorOf }),
          toolTimeout: 500,
          hooks: [{ after: (result) => void seen.push(result) }],
          onCallReport: (r) => reports.push(r),
        });
        await until(() => reports.some((r) => r.type === "late_settlement"));
        const late = reports.find((r) => r.type === "late_settlement");
        return { messages, late: { ...late, lateBy: typeof (late as { lateBy?: unknown }).lateBy }, seen };
      };
      const local = await observe(undefined);
      expect(local.late).toMatchObject({ abandoned: "timeout", settled: true, result: { type: "ok", value: { finished: 900 } } });
      expect(await observe(executor)).toEqual(local);
    });
  });

  describe("when a cancel is lost on its way to the worker", () => {
    it("aborts the handler all the same, from the cancel marker: the job ends and its worker can close", async () => {
      const answer = runToolCalls([{ id: "q-lost", name: "slow", arguments: { ms: 20_000 } }], tools(queue, "p"), { toolExecutor: executor });
      await until(async () => (await client.lrange(`${queue}:started`, 0, -1)).includes("q-lost"));
      // The marker the producer writes before it publishes, and no message: as if pub/sub dropped it.
      await client.set(`bull:${queue}:toolrx:cancel:${jobIdOf("conv-1", "q-lost", 1)}`, "stop");
      await until(async () => (await client.lrange(`${queue}:aborted`, 0, -1)).some((line) => line.startsWith("q-lost ")), 5_000);
      const { messages } = await answer;
      expect(messages[0]).toMatchObject({ isError: true, content: expect.stringContaining("cancelled") });
    });
  });

  describe("when calls start together", () => {
    it("sends them as one batch: each runs once, and one cancelled in the pass that started it never reaches a worker", async () => {
      const cancel = new Subject<string>();
      const batch: ToolCall[] = ["t1", "t2", "t3", "t4"].map((id) => ({ id, name: "slow", arguments: { ms: 50 } }));
      const events = await firstValueFrom(
        streamToolCalls(batch, tools(queue, "p"), { toolExecutor: executor, cancel, maxConcurrency: 4 }).pipe(
          tap((e) => {
            if (e.type === "tool_execution_started" && e.toolCallId === "t2") cancel.next("t2");
          }),
          toArray(),
        ),
      );
      const answers = new Map(events.filter((e) => e.type === "tool_result_encoded").map((e) => [e.toolCallId, e]));
      expect(must(answers.get("t2")).isError).toBe(true);
      for (const id of ["t1", "t3", "t4"]) expect(must(answers.get(id)).isError).toBe(false);
      await new Promise((r) => setTimeout(r, 500));
      const counts = await runCounts(client, queue);
      expect([counts.t1, counts.t2, counts.t3, counts.t4]).toEqual([1, undefined, 1, 1]);
    });
  });

  describe("when the run is aborted", () => {
    it("removes a job no worker has taken yet, so its handler never runs", async () => {
      const controller = new AbortController();
      // The worker runs 2 at once: the third call waits in the queue.
      const run = runToolCalls(
        [
          { id: "l1", name: "slow", arguments: { ms: 1_500 } },
          { id: "l2", name: "slow", arguments: { ms: 1_500 } },
          { id: "l3", name: "slow", arguments: { ms: 1_500 } },
        ],
        tools(queue, "p"),
        { toolExecutor: executor, signal: controller.signal },
      );
      await until(async () => (await client.lrange(`${queue}:started`, 0, -1)).filter((id) => id.startsWith("l")).length === 2);
      controller.abort(new Error("user stop"));
      await expect(run).rejects.toThrow("user stop");
      await new Promise((r) => setTimeout(r, 2_000));
      const counts = await runCounts(client, queue);
      expect([counts.l1, counts.l2, counts.l3]).toEqual([1, 1, undefined]);
      const aborted = await client.lrange(`${queue}:aborted`, 0, -1);
      expect(
        aborted
          .filter((line) => line.startsWith("l"))
          .map((line) => line.split(" ")[0])
          .sort(),
      ).toEqual(["l1", "l2"]);
    });
  });
});
