// bullmqExecutor when a call is stopped: its deadline passes, it settles late, its cancel is lost,
// it is cancelled in the pass that started it, the run is aborted. executor.test.ts: answers as in-process.
import { describe, expect, it } from "vitest";
import { firstValueFrom, Subject, tap, toArray } from "rxjs";
import { runToolCalls, streamToolCalls, type CallReport, type ToolCall } from "../../src/index.js";
import { jobIdOf, type BullmqExecutor } from "../../src/bullmq/index.js";
import { testTools as tools } from "./fixtures/tools.js";
import { runCounts, until } from "./fleet.js";
import { workerQueue } from "./worker-queue.js";
import { redisUnavailable } from "./redis.js";
import { must } from "../support/must.js";

describe.skipIf(redisUnavailable !== undefined)("bullmqExecutor", () => {
  const q = workerQueue("exec-stop");

  describe("when a call's deadline passes", () => {
    it("answers timeout, aborts the remote handler's ctx.signal, and reports what it settled with late", async () => {
      const reports: CallReport[] = [];
      const { messages } = await runToolCalls([{ id: "k", name: "slow", arguments: { ms: 20_000 } }], tools(q.queue, "p"), {
        toolExecutor: q.executor,
        toolTimeout: 500,
        onCallReport: (r) => reports.push(r),
      });
      expect(messages[0]).toMatchObject({ isError: true, content: expect.stringContaining("timeout") });
      await until(async () => (await q.client.lrange(`${q.queue}:aborted`, 0, -1)).some((line) => line.startsWith("k ")));
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
        const { messages } = await runToolCalls([{ id: "late", name: "stubborn", arguments: { ms: 900 } }], tools(q.queue, "p"), {
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
      expect(await observe(q.executor)).toEqual(local);
    });
  });

  describe("when a cancel is lost on its way to the worker", () => {
    it("aborts the handler all the same, from the cancel marker: the job ends and its worker can close", async () => {
      const answer = runToolCalls([{ id: "q-lost", name: "slow", arguments: { ms: 20_000 } }], tools(q.queue, "p"), { toolExecutor: q.executor });
      await until(async () => (await q.client.lrange(`${q.queue}:started`, 0, -1)).includes("q-lost"));
      // The marker the producer writes before it publishes, and no message: as if pub/sub dropped it.
      await q.client.set(`bull:${q.queue}:toolrx:cancel:${jobIdOf("conv-1", "q-lost", 1)}`, "stop");
      await until(async () => (await q.client.lrange(`${q.queue}:aborted`, 0, -1)).some((line) => line.startsWith("q-lost ")), 5_000);
      const { messages } = await answer;
      expect(messages[0]).toMatchObject({ isError: true, content: expect.stringContaining("cancelled") });
    });
  });

  describe("when calls start together", () => {
    it("sends them as one batch: each runs once, and one cancelled in the pass that started it never reaches a worker", async () => {
      const cancel = new Subject<string>();
      const batch: ToolCall[] = ["t1", "t2", "t3", "t4"].map((id) => ({ id, name: "slow", arguments: { ms: 50 } }));
      const events = await firstValueFrom(
        streamToolCalls(batch, tools(q.queue, "p"), { toolExecutor: q.executor, cancel, maxConcurrency: 4 }).pipe(
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
      const counts = await runCounts(q.client, q.queue);
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
        tools(q.queue, "p"),
        { toolExecutor: q.executor, signal: controller.signal },
      );
      await until(async () => (await q.client.lrange(`${q.queue}:started`, 0, -1)).filter((id) => id.startsWith("l")).length === 2);
      controller.abort(new Error("user stop"));
      await expect(run).rejects.toThrow("user stop");
      await new Promise((r) => setTimeout(r, 2_000));
      const counts = await runCounts(q.client, q.queue);
      expect([counts.l1, counts.l2, counts.l3]).toEqual([1, 1, undefined]);
      const aborted = await q.client.lrange(`${q.queue}:aborted`, 0, -1);
      expect(
        aborted
          .filter((line) => line.startsWith("l"))
          .map((line) => line.split(" ")[0])
          .sort(),
      ).toEqual(["l1", "l2"]);
    });
  });
});
