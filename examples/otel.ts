/**
 * OpenTelemetry: the trace of the demo's travel agent, printed as a tree. The same scripted
 * model and tools as `npm run demo` (examples/travel-agent.ts; no API key, no network), run through `toolrx/otel` with a
 * real SDK that keeps spans in memory, then printed as a tracing backend would show them:
 *
 *   invoke_agent travel           the run, until it halts on ask_user
 *   ├─ turn 0
 *   │  ├─ chat scripted-model     the model call, with its finish reason
 *   │  ├─ execute_tool weather    tools start while the model streams: siblings of the chat span
 *   │  ├─ execute_tool search_flights
 *   │  │  └─ GET /flights         the handler's own span nests under its tool span
 *   │  └─ execute_tool convert_currency   wrong arguments: error.type InvalidArgumentsError
 *   └─ turn 1 ...                 book_hotel throws (handler_raised), confirm_trip asks the user
 *
 * then the resumed run after the user's answer. Run: npm run -s example:otel
 */
import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { z } from "zod";
import { defineTool, ok } from "../src/index.js";
import { telemetry } from "../src/otel/index.js";
import { printTrace } from "./print-trace.js";
import { sleep } from "./sleep.js";
import { request, scriptedTravelModel, tools as demoTools } from "./travel-agent.js";

// ── The SDK: what an app sets up once (here in memory instead of an exporter to a backend) ──
const exporter = new InMemorySpanExporter();
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
const tracer = trace.getTracer("travel-app");

// ── The demo's tools, with search_flights making the HTTP call its real version would ────
const searchFlights = defineTool({
  name: "search_flights",
  description: "Search flights between two airports (IATA codes)",
  schema: z.object({ from: z.string().length(3), to: z.string().length(3), adults: z.number().int().default(1) }),
  // The handler's own span nests under its tool's span, across awaits.
  handler: async ({ from, to, adults }, ctx) =>
    tracer.startActiveSpan("GET /flights", async (http) => {
      await sleep(400, ctx.signal);
      http.end();
      return ok([{ flight: "TP1351", from, to, departs: "07:40", priceEur: 89 * adults }]);
    }),
});
const tools = demoTools.map((tool) => (tool.name === "search_flights" ? searchFlights : tool));

// ── The demo's scripted model, 60 ms between events ──────────────────────────────────────
const model = scriptedTravelModel();

// ── Run: one call turns tracing on; halt on ask_user, resume with the answer ─────────────
const { runAgent } = telemetry({ agentName: "travel", requestModel: "scripted-model" });
let result = await runAgent({ model, tools, messages: request, toolTimeout: 5_000, sessionId: "conv_42" });
if (result.haltedReason === "ask_user") {
  result = await runAgent({ model, tools, messages: [...result.messages, { role: "user", content: "yes" }], sessionId: "conv_42" });
}

printTrace(exporter.getFinishedSpans());
if (result.haltedReason !== "completed") process.exitCode = 1;
