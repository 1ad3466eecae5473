import { SpanStatusCode } from "@opentelemetry/api";
import type { Histogram } from "@opentelemetry/sdk-metrics";
import { firstValueFrom, Subject, toArray, VirtualTimeScheduler } from "rxjs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { askUser, defineTool, halt, ok, type ToolCall, type ToolEvent } from "../../src/index.js";
import { call, deferred, flushMicrotasks } from "../support/helpers.js";
import { must } from "../support/must.js";
import { setup } from "./otel-fixtures.js";

describe("telemetry()", () => {
  describe("when a call times out", () => {
    it("sets error.type timeout and the deadline that fired, and counts it", async () => {
      const { otel, traced } = setup();
      const scheduler = new VirtualTimeScheduler();
      const hung = defineTool({ name: "hung", description: "", schema: z.object({}), handler: () => new Promise<never>(() => {}) });
      const seen: ToolEvent[] = [];
      traced.streamToolCalls([call("c1", "hung")], [hung], { toolTimeout: 5_000, scheduler }).subscribe((e) => seen.push(e));
      await flushMicrotasks();
      expect(otel.openSpans()).toBe(1);
      scheduler.flush();
      expect(seen.map((e) => e.type)).toEqual(["tool_execution_started", "tool_execution_completed", "tool_result_encoded"]);
      const span = otel.span("execute_tool hung");
      expect(span.attributes).toMatchObject({ "error.type": "timeout", "toolrx.deadline.ms": 5_000, "toolrx.call.outcome": "error" });
      expect(span.status.message).toBe("tool hung timed out after 5000 ms");
      expect(await otel.points("toolrx.execute_tool.timeouts")).toMatchObject([{ attributes: { "gen_ai.tool.name": "hung" }, value: 1 }]);
      expect(otel.openSpans()).toBe(0);
    });
  });

  describe("when the stream lets go of running calls", () => {
    const slow = (started: () => void, aborted: (reason: unknown) => void) =>
      defineTool({
        name: "slow",
        description: "",
        schema: z.object({}),
        handler: (_args, ctx) => {
          started();
          return new Promise<never>(() => ctx.signal.addEventListener("abort", () => aborted(ctx.signal.reason)));
        },
      });

    it("ends every open span as cancelled on unsubscribe, after aborting the handler", async () => {
      const { otel, traced } = setup();
      let aborts = 0;
      let openAtAbort = -1;
      const tool = slow(
        () => {},
        () => {
          aborts++;
          openAtAbort = otel.openSpans();
        },
      );
      const subscription = traced.streamToolCalls([call("c1", "slow"), call("c2", "slow")], [tool]).subscribe();
      await flushMicrotasks();
      expect(otel.openSpans()).toBe(2);
      subscription.unsubscribe();
      expect(aborts).toBe(2);
      expect(openAtAbort).toBe(2);
      expect(otel.openSpans()).toBe(0);
      for (const span of otel.spans()) {
        expect(span.attributes).toMatchObject({ "error.type": "cancelled", "toolrx.call.outcome": "cancelled" });
        expect(span.status.code).toBe(SpanStatusCode.ERROR);
        expect(span.events.map((e) => e.name)).toEqual(["toolrx.cancelled"]);
      }
      const active = await otel.points("toolrx.execute_tool.active");
      expect(active.map((p) => p.value)).toEqual([0]);
    });

    it("ends them as cancelled with the signal's reason when opts.signal aborts", async () => {
      const { otel, traced } = setup();
      const controller = new AbortController();
      const done = traced.runToolCalls(
        [call("c1", "slow")],
        [
          slow(
            () => controller.abort(new Error("the user left")),
            () => {},
          ),
        ],
        {
          signal: controller.signal,
        },
      );
      await expect(done).rejects.toThrow("the user left");
      const span = otel.span("execute_tool slow");
      expect(span.attributes["toolrx.call.outcome"]).toBe("cancelled");
      expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: "the user left" });
      expect(otel.openSpans()).toBe(0);
    });

    it("opens no span for a call that never started", async () => {
      const { otel, traced } = setup();
      const subscription = traced
        .streamToolCalls(
          [call("c1", "slow"), call("c2", "slow")],
          [
            slow(
              () => {},
              () => {},
            ),
          ],
          { maxConcurrency: 1 },
        )
        .subscribe();
      await flushMicrotasks();
      subscription.unsubscribe();
      expect(otel.spans().map((s) => s.attributes["gen_ai.tool.call.id"])).toEqual(["c1"]);
    });
  });

  describe("halts and ask_user", () => {
    it("marks a handler's halt with its reason, not as an error", async () => {
      const { otel, events } = setup();
      const stop = defineTool({ name: "stop", description: "", schema: z.object({}), handler: () => halt("budget_exhausted", { spentEur: 12 }) });
      await events([call("c1", "stop")], [stop]);
      const span = otel.span("execute_tool stop");
      expect(span.status.code).toBe(SpanStatusCode.UNSET);
      expect(span.attributes).toMatchObject({ "toolrx.call.outcome": "halt", "toolrx.halt.reason": "budget_exhausted" });
      expect(span.attributes["error.type"]).toBeUndefined();
    });

    it("marks ask_user with an event, the question only with recordContent", async () => {
      const confirm = defineTool({ name: "confirm", description: "", schema: z.object({}), handler: () => askUser("Book it?") });
      for (const recordContent of [false, true]) {
        const { otel, events } = setup({ recordContent });
        await events([call("c1", "confirm")], [confirm]);
        const span = otel.span("execute_tool confirm");
        expect(span.attributes["toolrx.call.outcome"]).toBe("ask_user");
        expect(span.events.map((e) => [e.name, e.attributes])).toEqual([["toolrx.ask_user", recordContent ? { question: "Book it?" } : {}]]);
      }
    });
  });

  describe("queue wait", () => {
    it("records how long each call waited for its slot, from subscribe for a batch", async () => {
      const { otel, events } = setup();
      const gate = deferred<void>();
      const gated = defineTool({
        name: "gated",
        description: "",
        schema: z.object({}),
        handler: async () => {
          await gate.promise;
          return ok(1);
        },
      });
      setTimeout(() => gate.resolve(), 50);
      await events([call("c1", "gated"), call("c2", "gated")], [gated], { maxConcurrency: 1 });
      const waits = otel.spans().map((s) => s.attributes["toolrx.call.queue_wait_ms"] as number);
      expect(waits[0]).toBeLessThan(20);
      expect(waits[1]).toBeGreaterThanOrEqual(40);
      const [point] = await otel.points("toolrx.execute_tool.queue_wait");
      expect((must(point).value as Histogram).count).toBe(2);
    });

    it("counts a streamed call's wait from its arrival", async () => {
      const { otel, traced } = setup();
      const gate = deferred<void>();
      const gated = defineTool({ name: "gated", description: "", schema: z.object({}), handler: () => gate.promise.then(() => ok(1)) });
      const input = new Subject<ToolCall>();
      const done = firstValueFrom(traced.streamToolCalls(input, [gated], { maxConcurrency: 1 }).pipe(toArray()));
      input.next(call("c1", "gated"));
      await new Promise((resolve) => setTimeout(resolve, 40));
      input.next(call("c2", "gated"));
      input.complete();
      setTimeout(() => gate.resolve(), 40);
      await done;
      const waits = otel.spans().map((s) => s.attributes["toolrx.call.queue_wait_ms"] as number);
      expect(waits[1]).toBeGreaterThanOrEqual(30);
      // Not counted from subscribe: c2 arrived 40 ms after it.
      expect(waits[1]).toBeLessThan(must(waits[0]) + 75);
    });
  });
});
