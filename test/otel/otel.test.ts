import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, error, ok, runToolCalls as coreRunToolCalls, toolResolver, type Tool, type ToolEvent } from "../../src/index.js";
import { call } from "../support/helpers.js";
import { parentId } from "../support/otel-harness.js";
import { setup, weather } from "./otel-fixtures.js";

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
});
