/**
 * The first thing to run: a scripted model asks for six tool calls at once, and toolrx runs
 * them concurrently, each under a deadline, printing every event as it happens.
 *
 *   #0 weather          fast, succeeds
 *   #1 search_flights   slow (600 ms), succeeds
 *   #2 convert_currency the model got the arguments wrong: the handler never runs
 *   #3 book_hotel       throws: the error becomes a message, the batch goes on
 *   #4 confirm_trip     asks the user: the batch halts with `ask_user`
 *   #5 traffic          never answers: its deadline aborts `ctx.signal`
 *
 * Then the batch result: one tool message per call, in input order, and the halt metadata.
 * No API key, no network.
 *
 * Run: npm run demo
 */
import { z } from "zod";
import {
  askUser,
  defineTool,
  ok,
  RunResultCollector,
  streamToolCalls,
  type ToolCall,
  type ToolEvent,
} from "../src/index.js";
import { sleep } from "./sleep.js";

const t0 = performance.now();
const log = (line: string) => console.log(`[${String(Math.round(performance.now() - t0)).padStart(4)} ms] ${line}`);


// ── The tools ────────────────────────────────────────────────────────────────────────────

const weather = defineTool({
  name: "weather",
  description: "Current weather by city",
  schema: z.object({ city: z.string() }),
  handler: ({ city }) => ok({ city, tempC: 19, sky: "clear" }),
});

const searchFlights = defineTool({
  name: "search_flights",
  description: "Search flights between two airports",
  schema: z.object({ from: z.string().length(3), to: z.string().length(3), adults: z.number().int().default(1) }),
  handler: async ({ from, to, adults }, ctx) => {
    await sleep(600, ctx.signal);
    return ok([{ flight: "TP1351", from, to, departs: "07:40", adults, priceEur: 89 * adults }]);
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
  schema: z.object({ city: z.string(), nights: z.number().int() }),
  handler: async (_args, ctx) => {
    await sleep(150, ctx.signal);
    throw new Error("hotel API answered 503 Service Unavailable");
  },
});

const confirmTrip = defineTool({
  name: "confirm_trip",
  description: "Ask the traveller to confirm before anything is paid",
  schema: z.object({ summary: z.string() }),
  handler: ({ summary }) => askUser(`Book this trip? ${summary}`, { choices: ["yes", "no"] }),
});

const traffic = defineTool({
  name: "traffic",
  description: "Live traffic to the airport",
  schema: z.object({ to: z.string() }),
  handler: async (_args, ctx) => {
    ctx.signal.addEventListener("abort", () => log(`   #5 traffic's handler sees ctx.signal abort: ${String(ctx.signal.reason)}`));
    await sleep(60_000, ctx.signal); // a hung upstream: only the deadline ends it
    return ok("clear roads");
  },
});

const tools = [weather, searchFlights, convertCurrency, bookHotel, confirmTrip, traffic];

// ── A scripted model: streams a little text, then several tool calls at once ─────────────

type Chunk = { type: "text"; text: string } | { type: "tool_call"; id: string; name: string; json: string };

async function* scriptedModel(): AsyncGenerator<Chunk> {
  const turn: Chunk[] = [
    { type: "text", text: "Let me check everything for your Lisbon trip at once." },
    { type: "tool_call", id: "call_0", name: "weather", json: `{"city":"Lisbon"}` },
    { type: "tool_call", id: "call_1", name: "search_flights", json: `{"from":"OSL","to":"LIS","adults":2}` },
    { type: "tool_call", id: "call_2", name: "convert_currency", json: `{"amount":"about 200","from":"EUR"}` },
    { type: "tool_call", id: "call_3", name: "book_hotel", json: `{"city":"Lisbon","nights":3}` },
    { type: "tool_call", id: "call_4", name: "confirm_trip", json: `{"summary":"OSL→LIS, 2 adults, 3 nights"}` },
    { type: "tool_call", id: "call_5", name: "traffic", json: `{"to":"OSL"}` },
  ];
  for (const chunk of turn) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    yield chunk;
  }
}

function describeEvent(e: ToolEvent): string {
  switch (e.type) {
    case "tool_execution_started":
      return `started    ${JSON.stringify(e.arguments)}`;
    case "tool_execution_completed":
      return `completed  ${e.result.type}`;
    case "tool_result_encoded":
      return `${e.isError ? "error     " : "result    "} ${e.content}`;
    case "ask_user_requested":
      return `asks user  ${JSON.stringify(e.question)}`;
    case "tool_halt":
      return `halts      ${e.reason}: ${e.content}`;
  }
}

// ── Run ──────────────────────────────────────────────────────────────────────────────────

const calls: ToolCall[] = [];
for await (const chunk of scriptedModel()) {
  if (chunk.type === "text") {
    log(`model   ${JSON.stringify(chunk.text)}`);
  } else {
    log(`model   calls ${chunk.name}(${chunk.json})`);
    calls.push({ id: chunk.id, name: chunk.name, arguments: JSON.parse(chunk.json), rawArguments: chunk.json });
  }
}
log(`model   turn done: ${calls.length} tool calls, running them with a 900 ms deadline each\n`);

const collector = new RunResultCollector();
streamToolCalls(calls, tools, { toolTimeout: 900 }).subscribe({
  next(event) {
    collector.add(event);
    log(`#${event.index} ${event.toolName.padEnd(16)} ${describeEvent(event)}`);
  },
  error(e: unknown) {
    console.error("the batch failed:", e);
    process.exitCode = 1;
  },
  complete() {
    const { messages, halt } = collector.result();
    console.log("\nBatch result: one tool message per call, in input order");
    for (const m of messages) {
      console.log(`  ${m.toolCallId}  ${m.name.padEnd(16)} ${m.isError ? "isError " : "        "} ${m.content}`);
    }
    console.log("\nHalt metadata (the lowest index that halted wins):");
    console.log(`  ${JSON.stringify(halt)}`);
    log("done");
  },
});
