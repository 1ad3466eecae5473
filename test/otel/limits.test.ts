import { SpanStatusCode } from "@opentelemetry/api";
import fc from "fast-check";
import { firstValueFrom, toArray } from "rxjs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ok } from "../../src/index.js";
import { telemetry } from "../../src/otel/index.js";
import { scriptedModel } from "../../src/testing/index.js";
import { call, flushMicrotasks } from "../support/helpers.js";
import { otelHarness } from "../support/otel-harness.js";

const echo = defineTool({ name: "echo", description: "", schema: z.object({ text: z.string() }), handler: ({ text }) => ok(text) });
const hangs = defineTool({ name: "hangs", description: "", schema: z.object({}), handler: () => new Promise(() => {}) });

function setup(recordContent: boolean | { maxLength: number }) {
  const otel = otelHarness();
  return { otel, traced: telemetry({ tracerProvider: otel.tracerProvider, meterProvider: otel.meterProvider, recordContent, requestModel: "m" }) };
}

describe("recordContent: { maxLength }", () => {
  it("is the length of what is recorded, the truncation marker included", async () => {
    const { otel, traced } = setup({ maxLength: 30 });
    const text = "x".repeat(100);
    await firstValueFrom(traced.streamToolCalls([call("c1", "echo", { text })], [echo]).pipe(toArray()));
    const result = otel.span("execute_tool echo").attributes["gen_ai.tool.call.result"];
    expect(result).toBe(`${"x".repeat(8)}… (92 more characters)`);
    expect(String(result)).toHaveLength(30);
  });

  it("holds for any text and any limit, and the marker counts what was cut", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 300 }), fc.integer({ min: 1, max: 120 }), async (text, maxLength) => {
        const { otel, traced } = setup({ maxLength });
        await firstValueFrom(traced.streamToolCalls([call("c1", "echo", { text })], [echo]).pipe(toArray()));
        const recorded = String(otel.span("execute_tool echo").attributes["gen_ai.tool.call.result"]);
        expect(recorded.length).toBeLessThanOrEqual(maxLength);
        if (text.length <= maxLength) {
          expect(recorded).toBe(text);
          return;
        }
        const cut = /… \((\d+) more characters\)$/.exec(recorded);
        if (cut !== null) expect(recorded.length - cut[0].length + Number(cut[1])).toBe(text.length);
        else expect(recorded).toBe(`${text.slice(0, maxLength - 1)}…`);
      }),
      { numRuns: 200 },
    );
  });
});

describe("a span ended by unsubscribing, under recordContent", () => {
  it('has no status message, not the text "undefined"', async () => {
    const { otel, traced } = setup(true);
    const subscription = traced.streamToolCalls([call("c1", "hangs")], [hangs]).subscribe();
    await flushMicrotasks();
    subscription.unsubscribe();
    expect(otel.span("execute_tool hangs").status).toEqual({ code: SpanStatusCode.ERROR });
  });

  it("the same for the agent's spans", async () => {
    const { otel, traced } = setup(true);
    const model = scriptedModel([
      [
        { type: "tool_call", call: { id: "c1", name: "hangs", arguments: {} } },
        { type: "finish", reason: "tool_calls" },
      ],
    ]);
    const subscription = traced.streamAgent({ model, tools: [hangs], messages: [{ role: "user", content: "go" }] }).subscribe();
    await flushMicrotasks();
    subscription.unsubscribe();
    const statuses = otel
      .spans()
      .filter((s) => s.status.code === SpanStatusCode.ERROR)
      .map((s) => [s.name, s.status.message]);
    expect(statuses).toEqual([
      ["execute_tool hangs", undefined],
      ["turn", undefined],
      ["invoke_agent", undefined],
    ]);
  });
});

describe("a chat span of a model that emits synchronously", () => {
  it("ends well: no ERROR, no error.type, as the README's Observability example runs", async () => {
    const { otel, traced } = setup(false);
    const model = scriptedModel([
      [
        { type: "tool_call", call: { id: "call_1", name: "echo", arguments: { text: "Oslo" } } },
        { type: "finish", reason: "tool_calls" },
      ],
      [
        { type: "text_delta", text: "21 °C in Oslo." },
        { type: "finish", reason: "stop" },
      ],
    ]);
    const result = await traced.runAgent({ model, tools: [echo], messages: [{ role: "user", content: "Weather in Oslo?" }] });
    expect(result.haltedReason).toBe("completed");
    const chats = otel.spans().filter((s) => s.name === "chat m");
    expect(chats.map((s) => [s.status, s.attributes["error.type"], s.attributes["gen_ai.response.finish_reasons"]])).toEqual([
      [{ code: SpanStatusCode.UNSET }, undefined, ["tool_calls"]],
      [{ code: SpanStatusCode.UNSET }, undefined, ["stop"]],
    ]);
    expect(otel.openSpans()).toBe(0);
  });

  it("still ends as cancelled when the model is cut off before it said finish", async () => {
    const { otel, traced } = setup(false);
    const model = scriptedModel([[{ type: "text_delta", text: "Thinking" }, { wait: 10_000 }, { type: "finish", reason: "stop" }]]);
    const subscription = traced.streamAgent({ model, tools: [echo], messages: [{ role: "user", content: "hi" }] }).subscribe();
    await flushMicrotasks();
    subscription.unsubscribe();
    expect(otel.span("chat m").attributes["error.type"]).toBe("cancelled");
  });
});
