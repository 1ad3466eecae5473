/**
 * Code mode: the model writes one script that calls the tools, instead of one turn per call.
 * The same task (the cheapest of ten hotels, with its reviews) is solved twice by scripted
 * models: with the tools given directly (one call per turn, every result read back by the
 * model) and with `codeMode` (one script; only its final value reaches the model). The example
 * counts what each model was sent and prints the tokens saved (about 4 characters a token).
 *
 * Run: npm run example:code-mode
 */
import { z } from "zod";
import { defineTool, ok, runAgent, type ModelEvent, type ModelRequest } from "../src/index.js";
import { codeMode } from "../src/code-mode/index.js";
import { scriptedModel } from "../src/testing/index.js";

const HOTELS = ["Alba", "Bristol", "Corona", "Duna", "Esplanade", "Flora", "Gellert", "Hilton", "Ibis", "Jade"];
const price = defineTool({
  name: "hotel_price",
  description: "The nightly price of a hotel, in EUR, with its availability and a long description",
  schema: z.object({ hotel: z.string() }),
  handler: ({ hotel }) => {
    const eur = 80 + ((hotel.charCodeAt(0) * 37) % 120);
    return ok({ hotel, eur, available: true, description: `${hotel} is a hotel in the city centre. `.repeat(8) });
  },
});
const reviews = defineTool({
  name: "hotel_reviews",
  description: "Guest reviews of a hotel",
  schema: z.object({ hotel: z.string() }),
  handler: ({ hotel }) => ok({ hotel, stars: 4.2, reviews: ["Clean and quiet.", "Friendly staff.", "Great breakfast."] }),
});

/** A model that counts the characters of every request it is sent (messages and tool definitions). */
function counted(turns: ModelEvent[][]) {
  const inner = scriptedModel(turns);
  const sent = { requests: 0, chars: 0 };
  const model = (request: ModelRequest) => {
    sent.requests++;
    sent.chars += JSON.stringify(request.messages).length + JSON.stringify(request.tools).length;
    return inner(request);
  };
  return { model, sent };
}

const call = (id: string, name: string, args: Record<string, unknown>): ModelEvent => ({ type: "tool_call", call: { id, name, arguments: args } });
const answer = (text: string): ModelEvent[] => [
  { type: "text_delta", text },
  { type: "finish", reason: "stop" },
];
const messages = [{ role: "user" as const, content: "Which of our ten partner hotels is cheapest tonight, and what do guests say about it?" }];

// Directly: one price per turn, then the reviews, then the answer: twelve model calls.
const cheapest = HOTELS.reduce((best, h) => ((h.charCodeAt(0) * 37) % 120 < (best.charCodeAt(0) * 37) % 120 ? h : best));
const direct = counted([
  ...HOTELS.map((hotel, i) => [call(`p${i}`, "hotel_price", { hotel }), { type: "finish", reason: "tool_calls" } as ModelEvent]),
  [call("r", "hotel_reviews", { hotel: cheapest }), { type: "finish", reason: "tool_calls" }],
  answer(`${cheapest} is the cheapest; guests find it clean and quiet.`),
]);
const one = await runAgent({ model: direct.model, tools: [price, reviews], messages, maxTurns: 20 });

// In code mode: one script, then the answer: two model calls.
const code = codeMode({ tools: [price, reviews], run: { toolTimeout: 5_000 } });
const SCRIPT = `
  const hotels = ${JSON.stringify(HOTELS)};
  const prices = await Promise.all(hotels.map((hotel) => tools.hotel_price({ hotel })));
  const best = prices.filter((p) => p.available).sort((a, b) => a.eur - b.eur)[0];
  const { stars, reviews } = await tools.hotel_reviews({ hotel: best.hotel });
  return { hotel: best.hotel, eur: best.eur, stars, reviews };
`;
const scripted = counted([
  [call("s1", "run_script", { script: SCRIPT }), { type: "finish", reason: "tool_calls" }],
  answer(`${cheapest} is the cheapest; guests find it clean and quiet.`),
]);
const two = await runAgent({ model: scripted.model, tools: [code.tool], messages });
await code.close();

const scriptResult = two.messages.find((m) => m.role === "tool");
console.log(`code mode's answer: ${scriptResult?.role === "tool" ? scriptResult.content : "(none)"}`);
if (one.haltedReason !== "completed" || two.haltedReason !== "completed") throw new Error(`runs ended ${one.haltedReason} / ${two.haltedReason}`);
if (scriptResult?.role !== "tool" || JSON.parse(scriptResult.content).hotel !== cheapest) throw new Error("the script found another hotel");
const tokens = (chars: number) => Math.round(chars / 4);
console.log(`direct tools: ${direct.sent.requests} model calls, ${direct.sent.chars} characters sent (~${tokens(direct.sent.chars)} tokens)`);
console.log(`code mode:    ${scripted.sent.requests} model calls, ${scripted.sent.chars} characters sent (~${tokens(scripted.sent.chars)} tokens)`);
console.log(
  `saved: ~${tokens(direct.sent.chars - scripted.sent.chars)} input tokens (${Math.round((100 * (direct.sent.chars - scripted.sent.chars)) / direct.sent.chars)}%)`,
);
