import { ProxyTracerProvider, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { Histogram } from "@opentelemetry/sdk-metrics";
import { AlwaysOffSampler, AlwaysOnSampler, BasicTracerProvider, ParentBasedSampler } from "@opentelemetry/sdk-trace-base";
import { firstValueFrom, Subject, toArray, VirtualTimeScheduler } from "rxjs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  askUser,
  defineTool,
  error,
  halt,
  ok,
  runToolCalls as coreRunToolCalls,
  toolResolver,
  type Tool,
  type ToolCall,
  type ToolEvent,
} from "../../src/index.js";
import type { RunOptions } from "../../src/run/options/run-options.js";
import { telemetry } from "../../src/otel/index.js";
import { call, deferred, flushMicrotasks } from "../support/helpers.js";
import { otelHarness, parentId } from "../support/otel-harness.js";
import { must } from "../support/must.js";

const weather = defineTool({
  name: "weather",
  description: "Weather by city",
  schema: z.object({ city: z.string() }),
  handler: ({ city }) => ok({ city, tempC: 21 }),
});

/** A tool that takes no arguments and throws what `thrown` makes, on every call. */
function throwing(name: string, thrown: () => unknown): Tool {
  return defineTool({
    name,
    description: "",
    schema: z.object({}),
    handler: () => {
      throw thrown();
    },
  });
}

function setup(options: { recordContent?: boolean | { maxLength?: number } } = {}) {
  const otel = otelHarness();
  const traced = telemetry({ tracerProvider: otel.tracerProvider, meterProvider: otel.meterProvider, ...options });
  const events = (calls: readonly ToolCall[], tools: readonly Tool[], opts?: RunOptions) =>
    firstValueFrom(traced.streamToolCalls(calls, tools, opts).pipe(toArray()));
  return { otel, traced, events };
}

describe("telemetry()", () => {
  describe("when a call succeeds", () => {
    it("emits one execute_tool span named and attributed per the GenAI conventions", async () => {
      const { otel, events } = setup();
      await events([call("c1", "weather", { city: "Oslo" })], [weather]);
      const span = otel.span("execute_tool weather");
      expect(span.kind).toBe(SpanKind.INTERNAL);
      expect(span.status.code).toBe(SpanStatusCode.UNSET);
      expect(span.attributes).toEqual({
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "weather",
        "gen_ai.tool.call.id": "c1",
        "gen_ai.tool.description": "Weather by city",
        "gen_ai.tool.type": "function",
        "toolrx.call.index": 0,
        "toolrx.call.queue_wait_ms": expect.any(Number),
        "toolrx.call.outcome": "ok",
      });
      expect(otel.openSpans()).toBe(0);
    });

    it("records no argument or result content unless asked to", async () => {
      const { otel, events } = setup();
      await events([call("c1", "weather", { city: "Oslo" })], [weather]);
      const { attributes } = otel.span("execute_tool weather");
      expect(attributes["gen_ai.tool.call.arguments"]).toBeUndefined();
      expect(attributes["gen_ai.tool.call.result"]).toBeUndefined();
    });

    it("records arguments and result, truncated, with recordContent", async () => {
      const { otel, events } = setup({ recordContent: { maxLength: 12 } });
      await events([call("c1", "weather", { city: "Oslo" })], [weather]);
      const { attributes } = otel.span("execute_tool weather");
      // No room for the "(N more characters)" marker in 12: a bare ellipsis, within the limit.
      expect(attributes["gen_ai.tool.call.arguments"]).toBe('{"city":"Os…');
      expect(attributes["gen_ai.tool.call.result"]).toBe('{"city":"Os…');
    });

    it("returns the same events and result as the untraced runner", async () => {
      const { traced, events } = setup();
      const calls = [call("c1", "weather", { city: "Oslo" }), call("c2", "weather", { city: 7 })];
      const untraced = await coreRunToolCalls(calls, [weather]);
      expect(await traced.runToolCalls(calls, [weather])).toEqual(untraced);
      expect((await events(calls, [weather])).map((e: ToolEvent) => e.type)).toHaveLength(6);
    });
  });

  describe("parent-child structure", () => {
    it("makes the span active at subscribe the parent of every call's span", async () => {
      const { otel, traced } = setup();
      const calls = [call("c1", "weather", { city: "Oslo" }), call("c2", "weather", { city: "Rome" })];
      const parent = await otel.withParent(async (p) => {
        await traced.runToolCalls(calls, [weather]);
        return p;
      });
      const spans = otel.spans().filter((s) => s.name === "execute_tool weather");
      expect(spans).toHaveLength(2);
      for (const span of spans) {
        expect(parentId(span)).toBe(parent.spanContext().spanId);
        expect(span.spanContext().traceId).toBe(parent.spanContext().traceId);
      }
    });

    it("starts a new trace for each call when no span is active", async () => {
      const { otel, events } = setup();
      await events([call("c1", "weather", { city: "Oslo" })], [weather]);
      expect(parentId(otel.span("execute_tool weather"))).toBeUndefined();
    });

    it("nests the spans a handler starts, after an await, under the call's span", async () => {
      const { otel, events } = setup();
      const fetcher = defineTool({
        name: "fetcher",
        description: "",
        schema: z.object({}),
        handler: async () => {
          await new Promise((resolve) => setTimeout(resolve, 1));
          return otel.tracerProvider.getTracer("http").startActiveSpan("GET /weather", (http) => {
            http.end();
            return ok("done");
          });
        },
      });
      await events([call("c1", "fetcher")], [fetcher]);
      const tool = otel.span("execute_tool fetcher");
      expect(parentId(otel.span("GET /weather"))).toBe(tool.spanContext().spanId);
      // An empty description is no description.
      expect(tool.attributes["gen_ai.tool.description"]).toBeUndefined();
    });

    it("takes a resolver's tool description from availableTools()", async () => {
      const { otel, traced } = setup();
      await traced.runToolCalls([call("c1", "weather", { city: "Rome" })], toolResolver([weather]));
      expect(otel.span("execute_tool weather").attributes["gen_ai.tool.description"]).toBe("Weather by city");
    });
  });

  describe("when a call fails", () => {
    it("sets error.type to _OTHER for a handler's own error text, and ERROR status", async () => {
      const { otel, events } = setup();
      const nope = defineTool({ name: "nope", description: "", schema: z.object({}), handler: () => error("no station in Atlantis") });
      await events([call("c1", "nope")], [nope]);
      const span = otel.span("execute_tool nope");
      expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: undefined });
      expect(span.attributes).toMatchObject({ "error.type": "_OTHER", "toolrx.call.outcome": "error", "toolrx.policy.decision": "continue" });
    });

    it("keeps a handler's own error text in the status only with recordContent", async () => {
      const { otel, events } = setup({ recordContent: true });
      const nope = defineTool({ name: "nope", description: "", schema: z.object({}), handler: () => error("no station in Atlantis") });
      await events([call("c1", "nope")], [nope]);
      expect(otel.span("execute_tool nope").status.message).toBe("no station in Atlantis");
    });

    it("sets error.type to the ToolError reason and records the thrown exception", async () => {
      const { otel, events } = setup();
      const boom = throwing("boom", () => new RangeError("hotel API answered 503"));
      await events([call("c1", "boom")], [boom]);
      const span = otel.span("execute_tool boom");
      expect(span.attributes["error.type"]).toBe("handler_raised");
      expect(span.status.code).toBe(SpanStatusCode.ERROR);
      expect(span.events.map((e) => [e.name, e.attributes?.["exception.type"], e.attributes?.["exception.message"]])).toEqual([
        ["exception", "RangeError", "hotel API answered 503"],
      ]);
    });

    it("sets error.type to InvalidArgumentsError when the arguments do not match", async () => {
      const { otel, events } = setup();
      await events([call("c1", "weather", { city: 42 })], [weather]);
      const span = otel.span("execute_tool weather");
      expect(span.attributes["error.type"]).toBe("InvalidArgumentsError");
      expect(span.status.message).toMatch(/^Invalid arguments for tool "weather": city/);
      // The handler never ran, so it is not known which description it would have shown.
      expect(span.attributes["gen_ai.tool.description"]).toBeUndefined();
    });

    it("shows a policy halt as decision halt", async () => {
      const { otel, events } = setup();
      const nope = defineTool({ name: "nope", description: "", schema: z.object({}), handler: () => error("down") });
      await events([call("c1", "nope")], [nope], { onToolError: "halt" });
      expect(otel.span("execute_tool nope").attributes).toMatchObject({
        "error.type": "_OTHER",
        "toolrx.call.outcome": "error",
        "toolrx.policy.decision": "halt",
      });
    });

    it("shows a policy function's { continue: value } as a recovered failure", async () => {
      const { otel, events } = setup();
      const boom = throwing("boom", () => new Error("down"));
      const seen: unknown[] = [];
      const evs = await events([call("c1", "boom")], [boom], {
        onToolError: (_call, e) => {
          seen.push(e);
          return { continue: "try later" };
        },
      });
      expect(seen).toHaveLength(1);
      expect(evs[2]).toMatchObject({ type: "tool_result_encoded", content: "try later", isError: false });
      expect(otel.span("execute_tool boom").attributes).toMatchObject({
        "error.type": "handler_raised",
        "toolrx.call.outcome": "ok",
        "toolrx.policy.decision": "continue_with_value",
      });
    });
  });

  describe("hostile values", () => {
    it("never changes a call's answer, and still ends its span, when reading an error throws", async () => {
      const { otel, traced } = setup();
      class Hostile extends Error {
        override get name(): string {
          throw new Error("no name for you");
        }
      }
      const nope = throwing("nope", () => new Hostile("down"));
      const untraced = await coreRunToolCalls([call("c1", "nope")], [nope]);
      expect(await traced.runToolCalls([call("c1", "nope")], [nope])).toEqual(untraced);
      expect(otel.span("execute_tool nope").status.code).toBe(SpanStatusCode.ERROR);
      expect(otel.openSpans()).toBe(0);
    });

    it("runs the handler even when the tool's description getter throws", async () => {
      const { otel, traced } = setup();
      const tool = { ...weather };
      Object.defineProperty(tool, "description", {
        get() {
          throw new Error("no description");
        },
      });
      const { messages } = await traced.runToolCalls([call("c1", "weather", { city: "Oslo" })], [tool as Tool]);
      expect(messages[0]?.isError).toBe(false);
      expect(otel.openSpans()).toBe(0);
    });
  });

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

  describe("metrics", () => {
    it("records gen_ai.execute_tool.duration by tool and outcome, and no call left in flight", async () => {
      const { otel, events } = setup();
      const nope = defineTool({ name: "nope", description: "", schema: z.object({}), handler: () => error("down") });
      await events([call("c1", "weather", { city: "Oslo" }), call("c2", "nope"), call("c3", "weather", { city: "Rome" })], [weather, nope]);
      const points = await otel.points("gen_ai.execute_tool.duration");
      expect(points.map((p) => [p.attributes, (p.value as Histogram).count])).toEqual([
        [{ "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "weather", "toolrx.call.outcome": "ok" }, 2],
        [{ "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "nope", "toolrx.call.outcome": "error", "error.type": "_OTHER" }, 1],
      ]);
      expect((await otel.points("toolrx.execute_tool.active")).map((p) => p.value)).toEqual([0, 0]);
    });
  });

  describe("bad input", () => {
    it("throws a TypeError naming the option", () => {
      expect(() => telemetry({ recordContent: "yes" as never })).toThrow(new TypeError('Expected `recordContent` to be a boolean or { maxLength }, got "yes"'));
      expect(() => telemetry({ recordContent: { maxLength: 0 } })).toThrow(/`recordContent.maxLength`/);
      expect(() => telemetry({ tracerProvider: {} as never })).toThrow(/`tracerProvider`/);
      expect(() => telemetry({ agentName: 3 as never })).toThrow(/`agentName`/);
    });

    it("keeps the core's call-time checks", () => {
      const { traced } = setup();
      expect(() => traced.streamToolCalls([], [], { maxConcurrency: 0 })).toThrow(/`maxConcurrency`/);
      return expect(traced.runToolCalls("nope" as never, [])).rejects.toThrow(/`calls`/);
    });
  });

  it("runs calls unchanged with no SDK set up (the API's no-ops)", async () => {
    const traced = telemetry({ tracerProvider: new ProxyTracerProvider() });
    let active: unknown = "unset";
    const probe = defineTool({
      name: "probe",
      description: "",
      schema: z.object({}),
      handler: () => {
        active = trace.getActiveSpan();
        return ok("fine");
      },
    });
    const calls = [call("c1", "probe"), call("c2", "weather", { city: 1 })];
    expect(await traced.runToolCalls(calls, [probe, weather])).toEqual(await coreRunToolCalls(calls, [probe, weather]));
    expect(active).toBeUndefined();
  });

  it("records no span but still metrics when the trace is sampled out, and the handler's spans follow", async () => {
    const otel = otelHarness();
    const sampledOut = new BasicTracerProvider({ sampler: new ParentBasedSampler({ root: new AlwaysOffSampler() }), spanProcessors: [] });
    const traced = telemetry({ tracerProvider: sampledOut, meterProvider: otel.meterProvider });
    // The handler's tracer would record a root span: only the sampled-out parent it inherits stops it.
    const handlerTracer = new BasicTracerProvider({ sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }) }).getTracer("http");
    let handlerSpanRecorded: boolean | undefined;
    const probe = defineTool({
      name: "probe",
      description: "",
      schema: z.object({}),
      handler: async () => {
        await Promise.resolve();
        return handlerTracer.startActiveSpan("GET", (span) => {
          handlerSpanRecorded = span.isRecording();
          span.end();
          return ok(1);
        });
      },
    });
    await traced.runToolCalls([call("c1", "probe")], [probe]);
    expect(handlerSpanRecorded).toBe(false);
    const [point] = await otel.points("gen_ai.execute_tool.duration");
    expect((must(point).value as Histogram).count).toBe(1);
  });

  it("does not touch the global providers when given its own", async () => {
    const { otel, events } = setup();
    await events([call("c1", "weather", { city: "Oslo" })], [weather]);
    expect(otel.spans()).toHaveLength(1);
    expect(trace.getActiveSpan()).toBeUndefined();
  });
});
