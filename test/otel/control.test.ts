import { SpanStatusCode } from "@opentelemetry/api";
import { asyncScheduler, firstValueFrom, Subject, toArray, VirtualTimeScheduler } from "rxjs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ok, toolResolver, type CallReport } from "../../src/index.js";
import { telemetry } from "../../src/otel/index.js";
import { call, countingScheduler, flushMicrotasks } from "../support/helpers.js";
import { otelHarness, parentId } from "../support/otel-harness.js";

function setup(recordContent = false) {
  const otel = otelHarness();
  return { otel, traced: telemetry({ tracerProvider: otel.tracerProvider, meterProvider: otel.meterProvider, recordContent }) };
}

describe("telemetry() with call control", () => {
  describe("retries", () => {
    it("shows each failed attempt as an event and the attempts made, on one span for the whole call", async () => {
      const { otel, traced } = setup();
      let attempt = 0;
      const flaky = defineTool({
        name: "flaky",
        description: "",
        schema: z.object({}),
        control: { idempotent: true, retry: { attempts: 3, delay: 1, jitter: false } },
        handler: () => {
          if (++attempt === 1) throw new Error("503");
          return ok("fine");
        },
      });
      const { messages } = await traced.runToolCalls([call("c1", "flaky")], [flaky]);
      expect(messages[0]?.content).toBe("fine");
      const span = otel.span("execute_tool flaky");
      expect(span.attributes).toMatchObject({ "toolrx.call.outcome": "ok", "toolrx.call.attempts": 2 });
      expect(span.events.map((e) => [e.name, e.attributes])).toEqual([
        ["toolrx.retry", { "toolrx.attempt": 1, "error.type": "handler_raised", "toolrx.retry_in_ms": 1 }],
      ]);
    });

    it("counts every attempt of a call that failed them all", async () => {
      const { otel, traced } = setup();
      const down = defineTool({
        name: "down",
        description: "",
        schema: z.object({}),
        control: { idempotent: true, retry: { attempts: 3, delay: 1, jitter: false } },
        handler: () => {
          throw new Error("503");
        },
      });
      await traced.runToolCalls([call("c1", "down")], [down]);
      expect(otel.span("execute_tool down").attributes).toMatchObject({ "error.type": "handler_raised", "toolrx.call.attempts": 3 });
    });
  });

  describe("limits", () => {
    it("names the limit a call queued for, a group's or the tool's own, and its size", async () => {
      const { otel, traced } = setup();
      const pooled = defineTool({
        name: "pooled",
        description: "",
        schema: z.object({}),
        control: { concurrency: { group: "gpu", limit: 2 } },
        handler: () => ok(1),
      });
      const single = defineTool({ name: "single", description: "", schema: z.object({}), control: { concurrency: 1 }, handler: () => ok(2) });
      const free = defineTool({ name: "free", description: "", schema: z.object({}), handler: () => ok(3) });
      await traced.runToolCalls([call("c1", "pooled"), call("c2", "single"), call("c3", "free")], [pooled, single, free]);
      expect(otel.span("execute_tool pooled").attributes).toMatchObject({ "toolrx.concurrency.limit": "group:gpu", "toolrx.concurrency.max": 2 });
      expect(otel.span("execute_tool single").attributes).toMatchObject({ "toolrx.concurrency.limit": "tool:single", "toolrx.concurrency.max": 1 });
      expect(otel.span("execute_tool free").attributes["toolrx.concurrency.limit"]).toBeUndefined();
    });
  });

  describe("deadlines", () => {
    it("names the deadline that fired: the idle deadline, and that the handler was abandoned", async () => {
      const { otel, traced } = setup();
      const scheduler = new VirtualTimeScheduler();
      const quiet = defineTool({ name: "quiet", description: "", schema: z.object({}), handler: () => new Promise<never>(() => {}) });
      const done = firstValueFrom(traced.streamToolCalls([call("c1", "quiet")], [quiet], { toolIdleTimeout: 50, scheduler }).pipe(toArray()));
      await flushMicrotasks();
      scheduler.flush();
      await done;
      expect(otel.span("execute_tool quiet").attributes).toMatchObject({
        "error.type": "timeout",
        "toolrx.deadline": "toolIdleTimeout",
        "toolrx.deadline.ms": 50,
        "toolrx.timeout.settled": false,
      });
    });

    it("keeps no timer alive after a timeout when the user has no listener of their own", async () => {
      const { traced } = setup();
      const scheduler = countingScheduler(asyncScheduler);
      const hung = defineTool({ name: "hung", description: "", schema: z.object({}), handler: () => new Promise<never>(() => {}) });
      await traced.runToolCalls([call("c1", "hung")], [hung], { toolTimeout: 10, scheduler });
      await new Promise((resolve) => setTimeout(resolve, 30));
      // Tracing listens to the side channel, which makes the runner watch the abandoned handler;
      // it asks for a 0 ms watch, so a process is not kept waiting settleGrace (5 s) for nothing.
      expect(scheduler.live).toBe(0);
    });

    it("counts late settlements when the user watches for them", async () => {
      const { otel, traced } = setup();
      const slow = defineTool({
        name: "slow",
        description: "",
        schema: z.object({}),
        handler: () => new Promise((resolve) => setTimeout(() => resolve(ok("late")), 30)),
      });
      const reports: CallReport[] = [];
      await traced.runToolCalls([call("c1", "slow")], [slow], { toolTimeout: 10, onCallReport: (r) => reports.push(r) });
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect(reports.map((r) => r.type)).toEqual(["late_settlement"]);
      expect(await otel.points("toolrx.execute_tool.late_settlements")).toMatchObject([
        { attributes: { "gen_ai.tool.name": "slow", "toolrx.late.settled": true, "toolrx.late.abandoned": "timeout" }, value: 1 },
      ]);
    });
  });

  describe("progress", () => {
    it("records progress reports as span events, and still hands them to the user's listener", async () => {
      const { otel, traced } = setup(true);
      const pages = defineTool({
        name: "pages",
        description: "",
        schema: z.object({}),
        handler: (_args, ctx) => {
          ctx.progress({ progress: 1, total: 2, message: "page 1 of 2" });
          ctx.progress({ progress: 2, total: 2 });
          return ok("done");
        },
      });
      const seen: CallReport[] = [];
      await traced.runToolCalls([call("c1", "pages")], [pages], { onCallReport: (r) => seen.push(r) });
      expect(seen.map((r) => r.type)).toEqual(["progress", "progress"]);
      const span = otel.span("execute_tool pages");
      expect(span.attributes["toolrx.progress.reports"]).toBe(2);
      expect(span.events.map((e) => e.attributes)).toEqual([
        { "toolrx.progress": 1, "toolrx.attempt": 1, "toolrx.progress.total": 2, "toolrx.progress.message": "page 1 of 2" },
        { "toolrx.progress": 2, "toolrx.attempt": 1, "toolrx.progress.total": 2 },
      ]);
    });
  });

  describe("cancelling one call", () => {
    it("shows the call cancelled by id as a CallCancelledError, the rest of the batch untouched", async () => {
      const { otel, traced } = setup();
      const cancel = new Subject<string>();
      const hung = defineTool({ name: "hung", description: "", schema: z.object({}), handler: () => new Promise<never>(() => {}) });
      const quick = defineTool({ name: "quick", description: "", schema: z.object({}), handler: () => ok(1) });
      const done = traced.runToolCalls([call("c1", "hung"), call("c2", "quick")], [hung, quick], { cancel });
      await flushMicrotasks();
      cancel.next("c1");
      await done;
      expect(otel.span("execute_tool hung").attributes).toMatchObject({ "error.type": "CallCancelledError", "toolrx.call.outcome": "error" });
      expect(otel.span("execute_tool quick").status.code).toBe(SpanStatusCode.UNSET);
    });
  });

  describe("recipes", () => {
    it("shows each sub-step as a child span of its call", async () => {
      const { otel, traced } = setup();
      const search = defineTool({ name: "search", description: "", schema: z.object({ q: z.string() }), handler: ({ q }) => ok(`hits for ${q}`) });
      const research = defineTool({ name: "research", description: "Search, then read", schema: z.object({ topic: z.string() }) });
      const resolver = toolResolver([search, research], {
        recipes: {
          research: (args) => ({
            serial: [{ tool: "search", label: "first", arguments: { q: String(args.topic) } }],
            parallel: [
              { tool: "search", label: "second", arguments: { q: "more" } },
              { tool: "nope", label: "broken", arguments: {} },
            ],
          }),
        },
      });
      await traced.runToolCalls([call("c1", "research", { topic: "rxjs" })], resolver);
      const parent = otel.span("execute_tool research");
      const steps = otel.spans().filter((s) => parentId(s) === parent.spanContext().spanId);
      expect(steps.map((s) => [s.name, s.attributes["gen_ai.tool.call.id"], s.attributes["toolrx.recipe.label"], s.status.code]).sort()).toEqual([
        ["execute_tool nope", "c1/parallel/1", "broken", SpanStatusCode.ERROR],
        ["execute_tool search", "c1/parallel/0", "second", SpanStatusCode.UNSET],
        ["execute_tool search", "c1/serial/0", "first", SpanStatusCode.UNSET],
      ]);
      expect(otel.openSpans()).toBe(0);
    });
  });
});
