// bullmqExecutor answering as in-process: messages, events, errors, validation, context, progress, parts,
// retries, arguments JSON cannot carry. executor-stops.test.ts: calls stopped by a deadline, a cancel, an abort.
import { describe, expect, it } from "vitest";
import { config, firstValueFrom, toArray } from "rxjs";
import { isToolError, runToolCalls, streamToolCalls, type CallReport, type ToolCall, type ToolEvent } from "../../src/index.js";
import { jobIdOf } from "../../src/bullmq/index.js";
import { PIXEL, testTools as tools } from "./fixtures/tools.js";
import { runCounts, until } from "./fleet.js";
import { workerQueue } from "./worker-queue.js";
import { redisUnavailable } from "./redis.js";
import { must } from "../support/must.js";

describe.skipIf(redisUnavailable !== undefined)("bullmqExecutor", () => {
  const q = workerQueue("exec");

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
      const local = await runToolCalls(calls, tools(q.queue, "w1"));
      const remote = await runToolCalls(calls, tools(q.queue, "producer"), { toolExecutor: q.executor });
      expect(remote).toEqual(local);

      const localEvents = await firstValueFrom(streamToolCalls(calls, tools(q.queue, "w1")).pipe(toArray()));
      const remoteEvents = await firstValueFrom(streamToolCalls(calls, tools(q.queue, "p"), { toolExecutor: q.executor }).pipe(toArray()));
      const byCall = (events: ToolEvent[]) => calls.map((c) => events.filter((e) => e.toolCallId === c.id).map(shape));
      expect(byCall(remoteEvents)).toEqual(byCall(localEvents));
    });

    it("keeps a ToolError's class and reason across Redis", async () => {
      let seen: unknown;
      await runToolCalls([{ id: "g", name: "boom", arguments: {} }], tools(q.queue, "p"), {
        toolExecutor: q.executor,
        onToolError: (_call, e) => {
          seen = e;
          return { continue: "ok" };
        },
      });
      expect(isToolError(seen)).toBe(true);
      expect(seen).toMatchObject({ reason: "handler_raised", toolName: "boom", toolCallId: "g", cause: { message: "kaput" } });
    });

    it("validates arguments on the worker as in-process", async () => {
      const local = await runToolCalls([{ id: "h", name: "echo", arguments: { text: 3 } }], tools(q.queue, "w1"));
      const remote = await runToolCalls([{ id: "h", name: "echo", arguments: { text: 3 } }], tools(q.queue, "p"), {
        toolExecutor: q.executor,
        validateArguments: false,
      });
      expect(remote.messages).toEqual(local.messages);
      expect((await runCounts(q.client, q.queue)).h).toBeUndefined();
    });

    it("hands the handler zod's output, a stable idempotency key and the attempt", async () => {
      const { messages } = await runToolCalls([{ id: "i:1", name: "echo", arguments: { text: "ab" } }], tools(q.queue, "p"), { toolExecutor: q.executor });
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
        const remote = await runToolCalls([call], tools(q.queue, "p"), { toolExecutor: q.executor, onCallReport: (r) => reports.push(r) });
        const local = await runToolCalls([call], tools(q.queue, "w1"));
        expect(remote).toEqual(local);
        expect(remote.messages[0]).toMatchObject({ content: "done", isError: false });
        expect(reports).toEqual([]);
        // One report from each run: the remote one reaches this host as the local one does.
        await until(() => unhandled.length === 2, 5_000);
        for (const e of unhandled) expect(String(e)).toContain("Expected `ctx.progress` of tool bad_progress (call bp) to get");
        expect(q.worker.process.exitCode).toBeNull();
        const after = await runToolCalls([{ id: "after", name: "echo", arguments: { text: "still here" } }], tools(q.queue, "p"), { toolExecutor: q.executor });
        expect(after.messages[0]?.isError).toBe(false);
      } finally {
        config.onUnhandledError = previous;
      }
    });

    it("brings the remote handler's progress and log lines to onCallReport", async () => {
      const reports: CallReport[] = [];
      await runToolCalls([{ id: "j", name: "progress", arguments: {} }], tools(q.queue, "p"), {
        toolExecutor: q.executor,
        onCallReport: (r) => reports.push(r),
      });
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
      const remote = await runToolCalls([call], tools(q.queue, "p"), { toolExecutor: q.executor });
      expect(remote.messages[0]?.parts).toEqual([{ type: "image", mediaType: "image/png", data: PIXEL }]);
      expect(remote).toEqual(await runToolCalls([call], tools(q.queue, "w1")));
    });
  });

  describe("when a tool retries", () => {
    it("runs its handler once per attempt, each job with the producer's attempt number", async () => {
      const reports: CallReport[] = [];
      const { messages } = await runToolCalls([{ id: "rt", name: "flaky", arguments: {} }], tools(q.queue, "p"), {
        toolExecutor: q.executor,
        onCallReport: (r) => reports.push(r),
      });
      expect(messages[0]).toMatchObject({ isError: true, content: expect.stringContaining("flaky") });
      expect(await q.client.lrange(`${q.queue}:attempts`, 0, -1)).toEqual(["rt 1", "rt 2", "rt 3"]);
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
        tools(q.queue, "p"),
        {
          toolExecutor: q.executor,
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
      expect(await q.client.exists(`bull:${q.queue}:${jobIdOf("conv-1", "big", 1)}`)).toBe(0);
    });
  });
});
