/**
 * The travel agent of `npm run demo`, examples/otel.ts and examples/agent-openai.ts: its tools,
 * the conversation it starts from, the scripted model the offline examples run it on, and a run
 * that prints every event live, halts on `ask_user`, resumes with the traveller's answer and
 * prints the conversation. Only the model differs between the demo and the OpenAI example.
 */
import { z } from "zod";
import { askUser, defineTool, ok, streamAgent, type AgentEvent, type AgentResult, type Model, type ModelEvent, type ToolEvent } from "../src/index.js";
import type { Message } from "../src/tool/message.js";
import { scriptedModel, type ScriptedModel } from "../src/testing/index.js";
import { sleep } from "./sleep.js";

// ── The tools ────────────────────────────────────────────────────────────────────────────

const weather = defineTool({
  name: "weather",
  description: "Current weather by city",
  schema: z.object({ city: z.string() }),
  handler: ({ city }) => ok({ city, tempC: 19, sky: "clear" }),
});

const searchFlights = defineTool({
  name: "search_flights",
  description: "Search flights between two airports (IATA codes)",
  schema: z.object({ from: z.string().length(3), to: z.string().length(3), adults: z.number().int().default(1) }),
  handler: async ({ from, to, adults }, ctx) => {
    await sleep(400, ctx.signal);
    return ok([{ flight: "TP1351", from, to, departs: "07:40", priceEur: 89 * adults }]);
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
    await sleep(100, ctx.signal);
    throw new Error("hotel API answered 503 Service Unavailable");
  },
});

const confirmTrip = defineTool({
  name: "confirm_trip",
  description: "Ask the traveller to confirm before anything is paid",
  schema: z.object({ summary: z.string() }),
  handler: ({ summary }) => askUser(`Book this trip? ${summary}`, { choices: ["yes", "no"] }),
});

/** The travel agent's tools: fast, slow, strict about arguments, failing, and one that asks the user. */
export const tools = [weather, searchFlights, convertCurrency, bookHotel, confirmTrip];

/** The conversation the agent starts from. */
export const request: readonly Message[] = [
  { role: "system", content: "You are a travel agent. Use the tools, and confirm with the traveller before booking." },
  { role: "user", content: "Plan a long weekend in Lisbon for two, from Oslo." },
];

// ── A scripted model: what a real one would stream, 60 ms between events ─────────────────

const say = (text: string): ModelEvent => ({ type: "text_delta", text });
const call = (id: string, name: string, args: Record<string, unknown>): ModelEvent => ({ type: "tool_call", call: { id, name, arguments: args } });

/**
 * A fresh scripted model for the travel agent (no API key, no network): turn 0 asks for weather,
 * search_flights and convert_currency (with wrong arguments) while it talks, turn 1 for book_hotel
 * and confirm_trip (which asks the user), and the turn after the answer ends the run. Each call
 * gives a model with its own turn count, so every run of an example starts from turn 0.
 */
export function scriptedTravelModel(): ScriptedModel {
  return scriptedModel(
    [
      [
        say("Let me check the weather, "),
        call("call_1", "weather", { city: "Lisbon" }),
        say("flights "),
        call("call_2", "search_flights", { from: "OSL", to: "LIS", adults: 2 }),
        say("and prices at once."),
        call("call_3", "convert_currency", { amount: "about 200", from: "EUR" }),
        { type: "finish", reason: "tool_calls" },
      ],
      [
        say("Clear skies and a 07:40 flight. Booking a hotel and asking you to confirm."),
        call("call_4", "book_hotel", { city: "Lisbon", nights: 3 }),
        call("call_5", "confirm_trip", { summary: "OSL→LIS, 2 adults, 3 nights" }),
        { type: "finish", reason: "tool_calls" },
      ],
      [say("Booked: TP1351 on Friday. "), say("The hotel API is down, so I will retry the room later."), { type: "finish", reason: "stop" }],
    ],
    { delay: 60 },
  );
}

// ── Showing the run ──────────────────────────────────────────────────────────────────────

const t0 = performance.now();
const log = (line: string) => console.log(`[${String(Math.round(performance.now() - t0)).padStart(4)} ms] ${line}`);
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);

function describeTool(e: ToolEvent): string | undefined {
  const who = e.toolName.padEnd(16);
  switch (e.type) {
    case "tool_execution_started":
      return `  ⚙ ${who} started   ${JSON.stringify(e.arguments)}`;
    case "tool_result_encoded":
      return `  ⚙ ${who} ${e.isError ? "error  " : "result "}   ${clip(e.content, 90)}`;
    case "ask_user_requested":
      return `  ⚙ ${who} asks the user: ${JSON.stringify(e.question)}`;
    case "tool_halt":
      return `  ⚙ ${who} halts     ${e.reason}`;
    default:
      return undefined; // `completed` adds nothing the tail event does not say
  }
}

function show(e: AgentEvent): void {
  switch (e.type) {
    case "turn_started":
      log(`turn ${e.turn}`);
      return;
    case "text_delta":
      log(`  model: ${JSON.stringify(e.text)}`);
      return;
    case "tool_event": {
      const line = describeTool(e.event);
      if (line !== undefined) log(line);
      return;
    }
    case "turn_completed":
      return;
    case "agent_halted":
      log(`halted: ${e.haltedReason} ${JSON.stringify(e.metadata)}\n`);
      return;
  }
}

/** One run of the loop, shown live; resolves with how it ended. */
function run(model: Model, messages: readonly Message[]): Promise<AgentResult> {
  return new Promise((resolve, reject) => {
    streamAgent({ model, tools, messages, toolTimeout: 5_000 }).subscribe({
      next(e) {
        show(e);
        if (e.type === "agent_halted") resolve(e);
      },
      error: reject,
    });
  });
}

// ── Run, halt on ask_user, resume with the answer ────────────────────────────────────────

/**
 * Run the travel agent on `model` to its end: each time it asks the traveller, answer "yes" (a
 * real host would ask here) and resume with the whole conversation plus the answer. A model that
 * keeps asking is stopped after three answers. Prints the conversation; resolves with how it ended.
 */
export async function planTrip(model: Model): Promise<AgentResult> {
  let result = await run(model, request);
  for (let answers = 0; result.haltedReason === "ask_user" && answers < 3; answers++) {
    const answer = "yes";
    log(`the user answers ${JSON.stringify(answer)}; resuming with the whole conversation plus the answer\n`);
    result = await run(model, [...result.messages, { role: "user", content: answer }]);
  }
  console.log(`The conversation (${result.messages.length} messages), ready for the next user message:`);
  for (const m of result.messages) {
    const text = m.role === "approval" ? `${m.toolCallId} approved=${m.approved}` : m.content;
    const calls = m.role === "assistant" && m.toolCalls ? `  → ${m.toolCalls.map((c) => c.name).join(", ")}` : "";
    console.log(`  ${m.role.padEnd(9)} ${clip(`${text}${calls}`, 100)}`);
  }
  return result;
}
