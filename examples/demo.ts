/**
 * The first thing to run: a travel agent on a scripted model (no API key, no network).
 *
 *   turn 0  the model streams text and asks for three tools while it talks; they start at once:
 *           weather (fast), search_flights (slow), convert_currency (wrong arguments: the
 *           handler never runs, the model is told what was wrong)
 *   turn 1  the model reads the results and asks for two more: book_hotel throws (the error
 *           becomes a message, the run goes on) and confirm_trip asks the user: the loop halts
 *   resume  the host appends the user's answer to the conversation and calls again
 *   turn 0  the model answers; the loop ends with `completed`
 *
 * Every event is printed as it happens, then the conversation. The tools and the printing live in
 * travel-agent.ts, shared with examples/agent-openai.ts, which runs the same agent against OpenAI.
 *
 * Run: npm run demo
 */
import type { ModelEvent } from "../src/index.js";
import { scriptedModel } from "../src/testing/index.js";
import { planTrip } from "./travel-agent.js";

// ── A scripted model: what a real one would stream, 60 ms between events ─────────────────

const say = (text: string): ModelEvent => ({ type: "text_delta", text });
const call = (id: string, name: string, args: Record<string, unknown>): ModelEvent => ({ type: "tool_call", call: { id, name, arguments: args } });

const model = scriptedModel(
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

const result = await planTrip(model);
if (result.haltedReason !== "completed") process.exitCode = 1;
