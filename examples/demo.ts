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
 * Every event is printed as it happens, then the conversation. The scripted model (60 ms between
 * events), the tools and the printing live in travel-agent.ts, shared with examples/otel.ts and
 * examples/agent-openai.ts, which runs the same agent against OpenAI.
 *
 * Run: npm run demo
 */
import { planTrip, scriptedTravelModel } from "./travel-agent.js";

const result = await planTrip(scriptedTravelModel());
if (result.haltedReason !== "completed") process.exitCode = 1;
