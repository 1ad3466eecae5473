/**
 * The travel agent of `npm run demo`, the same tools and the same printing, on a real model:
 * OpenAI Chat Completions through `openai.chatModel`. The model decides which tools to call;
 * each time it asks the traveller to confirm, the example answers "yes" and resumes.
 *
 * Run: OPENAI_API_KEY=sk-... npm run example:agent-openai
 *      (OPENAI_MODEL picks the model, default gpt-4.1-mini; OPENAI_BASE_URL another endpoint.)
 * Without a key it says what it would do and exits 0, so CI can run it.
 */
import OpenAI from "openai";
import { openai } from "../src/providers/index.js";
import { planTrip, tools } from "./travel-agent.js";

const modelName = process.env.OPENAI_MODEL ?? "gpt-4.1-mini";

if (!process.env.OPENAI_API_KEY) {
  console.log(`examples/agent-openai.ts: OPENAI_API_KEY is not set, so nothing was sent.

With a key, it runs the travel agent of \`npm run demo\` against OpenAI (${modelName}, streamed
through openai.chatModel): the model plans a weekend in Lisbon with the tools
  ${tools.map((t) => t.name).join(", ")}
Every text delta and tool event is printed live; when the agent asks the traveller to confirm,
the example answers "yes" and resumes.

Run it with:  OPENAI_API_KEY=sk-... npm run example:agent-openai
(No key? \`npm run demo\` runs the same agent on a scripted model.)`);
} else {
  // The SDK reads OPENAI_API_KEY and OPENAI_BASE_URL itself.
  const model = openai.chatModel({ client: new OpenAI(), model: modelName });
  const result = await planTrip(model);
  if (result.haltedReason !== "completed") process.exitCode = 1;
}
