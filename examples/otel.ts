/**
 * OpenTelemetry: the trace of a batch of tool calls, printed as a tree. The same six calls as
 * the demo (a fast one, a slow one whose HTTP call nests under its span, wrong arguments, a
 * throw, an ask_user, a hang until its deadline), run through `toolrx/otel` with a real SDK that
 * keeps spans in memory, then printed as a backend would show them.
 *
 * No API key, no network. Run: npm run -s example:otel
 */
import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { z } from "zod";
import { askUser, defineTool, ok, type ToolCall } from "../src/index.js";
import { telemetry } from "../src/otel/index.js";
import { printTrace } from "./print-trace.js";
import { sleep } from "./sleep.js";

// ── The SDK: what an app sets up once (here in memory instead of an exporter to a backend) ──
const exporter = new InMemorySpanExporter();
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
const tracer = trace.getTracer("travel-app");

// ── Tools ────────────────────────────────────────────────────────────────────────────────
const weather = defineTool({
  name: "weather",
  description: "Current weather by city",
  schema: z.object({ city: z.string() }),
  handler: ({ city }) => ok({ city, tempC: 19, sky: "clear" }),
});
const searchFlights = defineTool({
  name: "search_flights",
  description: "Search flights between two airports",
  schema: z.object({ from: z.string().length(3), to: z.string().length(3) }),
  // The handler's own span (an HTTP call, say) nests under the tool's span, after an await too.
  handler: async ({ from, to }, ctx) => {
    await sleep(20, ctx.signal);
    return tracer.startActiveSpan(`GET /flights?from=${from}&to=${to}`, async (http) => {
      await sleep(300, ctx.signal);
      http.end();
      return ok([{ flight: "TP1351", from, to, priceEur: 89 }]);
    });
  },
});
const convertCurrency = defineTool({
  name: "convert_currency",
  description: "Convert an amount between currencies",
  schema: z.object({ amount: z.number().positive(), from: z.string(), to: z.string() }),
  handler: ({ amount }) => ok({ amount: amount * 1.08 }),
});
const bookHotel = defineTool({
  name: "book_hotel",
  description: "Book a hotel room",
  schema: z.object({ city: z.string() }),
  handler: async (_args, ctx) => {
    await sleep(100, ctx.signal);
    throw new Error("hotel API answered 503 Service Unavailable");
  },
});
const confirmTrip = defineTool({
  name: "confirm_trip",
  description: "Ask the traveller to confirm",
  schema: z.object({ summary: z.string() }),
  handler: ({ summary }) => askUser(`Book this trip? ${summary}`),
});
const traffic = defineTool({
  name: "traffic",
  description: "Live traffic to the airport",
  schema: z.object({ to: z.string() }),
  handler: async (_args, ctx) => {
    await sleep(60_000, ctx.signal); // a hung upstream: only the deadline ends it
    return ok("clear roads");
  },
});

const calls: ToolCall[] = [
  { id: "call_0", name: "weather", arguments: { city: "Lisbon" } },
  { id: "call_1", name: "search_flights", arguments: { from: "OSL", to: "LIS" } },
  { id: "call_2", name: "convert_currency", arguments: { amount: "about 200", from: "EUR" } },
  { id: "call_3", name: "book_hotel", arguments: { city: "Lisbon" } },
  { id: "call_4", name: "confirm_trip", arguments: { summary: "OSL→LIS, 3 nights" } },
  { id: "call_5", name: "traffic", arguments: { to: "OSL" } },
];

// ── Run: one call turns tracing on; the span active at the call is the parent ─────────────
const { runToolCalls } = telemetry();
await tracer.startActiveSpan("plan trip", async (root) => {
  const result = await runToolCalls(calls, [weather, searchFlights, convertCurrency, bookHotel, confirmTrip, traffic], {
    toolTimeout: 500,
    maxConcurrency: 4,
  });
  root.setAttribute("toolrx.halted_reason", result.halt?.haltedReason ?? "none");
  root.end();
});

printTrace(exporter.getFinishedSpans());
