import { z } from "zod";
import { agentTool, askUser, defineTool, error, ok, type ModelEvent, type ModelRequest } from "../../src/index.js";
import { scriptedModel, type ScriptedModel } from "../../src/testing/index.js";
import { sleep } from "../sleep.js";

/** A subagent's tool: what is on in a city. */
const cityEvents = defineTool({
  name: "city_events",
  description: "What is on in a city",
  schema: z.object({ city: z.string() }),
  handler: async ({ city }, ctx) => {
    await sleep(150, ctx.signal);
    return ok({ city, events: ["fado night", "tram 28 tour"] });
  },
});

/**
 * A subagent with its own scripted model and tool: its events reach the page nested under the
 * call that runs it. A function, so that every run (every page) gets a model of its own.
 */
const guide = () =>
  agentTool({
    name: "local_guide",
    description: "A local guide that finds what is on",
    schema: z.object({ city: z.string() }),
    agent: ({ city }) => ({
      model: scriptedModel(
        [
          [...call("guide_1", "city_events", { city }), { type: "finish", reason: "tool_calls" }],
          [say(`In ${city}: fado night, tram 28 tour.`), { type: "finish", reason: "stop" }],
        ],
        { delay: 30 },
      ),
      tools: [cityEvents],
      messages: [{ role: "user", content: `What is on in ${city}?` }],
    }),
  });

/** The tools of the scripted run: each one shows a different state in the timeline. */
export const tools = () => [
  guide(),
  defineTool({
    name: "weather",
    description: "Weather by city",
    schema: z.object({ city: z.string() }),
    handler: async ({ city }, ctx) => {
      await sleep(city === "Reykjavik" ? 900 : 250, ctx.signal);
      return ok({ city, tempC: city === "Reykjavik" ? 3 : 18 });
    },
  }),
  defineTool({
    name: "book_flight",
    description: "Book a flight",
    schema: z.object({ to: z.string() }),
    handler: async ({ to }, ctx) => {
      await sleep(350, ctx.signal);
      return error(`no seats left to ${to}`);
    },
  }),
  defineTool({
    name: "choose_hotel",
    description: "Ask the traveller which hotel",
    schema: z.object({ city: z.string() }),
    handler: async ({ city }, ctx) => {
      await sleep(200, ctx.signal);
      return askUser(`Which hotel in ${city}?`, { choices: ["Harbour View", "Old Town Inn"] });
    },
  }),
  // Long tools report progress on the side channel: the page draws a bar from it.
  defineTool({
    name: "export_report",
    description: "Export the trip report, page by page",
    schema: z.object({ pages: z.number().int().positive() }),
    handler: async ({ pages }, ctx) => {
      for (let page = 1; page <= pages; page++) {
        await sleep(120, ctx.signal);
        ctx.progress({ progress: page, total: pages, message: `page ${page} of ${pages}` });
      }
      return ok({ pages, file: "trip-report.pdf" });
    },
  }),
  defineTool({
    name: "crawl_reviews",
    description: "Read every review of a hotel (slow: a user may stop it)",
    schema: z.object({ hotel: z.string() }),
    handler: async ({ hotel }, ctx) => {
      const total = 60;
      for (let read = 1; read <= total; read++) {
        await sleep(250, ctx.signal);
        ctx.progress({ progress: read, total, message: `${read} reviews of ${hotel} read` });
      }
      return ok({ hotel, reviews: total });
    },
  }),
  defineTool({
    name: "book_hotel",
    description: "Book the hotel the traveller chose",
    schema: z.object({ hotel: z.string() }),
    handler: async ({ hotel }, ctx) => {
      await sleep(300, ctx.signal);
      return ok({ hotel, nights: 3, confirmation: "HV-2231" });
    },
  }),
];

/**
 * A call as a provider streams it: announced, its argument text in two pieces, then whole. The
 * page shows the arguments forming from the loop's `tool_input` events, before the call runs.
 */
const call = (id: string, name: string, args: Record<string, unknown>): ModelEvent[] => {
  const text = JSON.stringify(args);
  const half = Math.ceil(text.length / 2);
  return [
    { type: "tool_input_started", id, name },
    { type: "tool_input_delta", id, delta: text.slice(0, half) },
    { type: "tool_input_delta", id, delta: text.slice(half) },
    { type: "tool_call", call: { id, name, arguments: args, rawArguments: text } },
  ];
};
const say = (text: string): ModelEvent => ({ type: "text_delta", text });

/** What the traveller answered: the last user message of the resumed conversation. */
function answerIn(request: ModelRequest): string {
  const last = request.messages.filter((m) => m.role === "user").at(-1);
  return last?.role === "user" ? last.content : "";
}

/**
 * A scripted model for one page (it counts its turns, so each page gets its own): it asks for
 * seven calls, one of which asks the traveller which hotel; once resumed with the answer, it
 * books that hotel, asks a local guide (a subagent) what is on, and says so.
 */
export function tripModel(): ScriptedModel {
  return scriptedModel(
    [
      [
        say("Checking the weather, flights and hotels. "),
        ...call("call_1", "weather", { city: "Lisbon" }),
        ...call("call_2", "weather", { city: "Reykjavik" }),
        ...call("call_3", "book_flight", { to: "Lisbon" }),
        ...call("call_4", "choose_hotel", { city: "Lisbon" }),
        ...call("call_5", "weather", { city: 42 }),
        ...call("call_6", "export_report", { pages: 8 }),
        ...call("call_7", "crawl_reviews", { hotel: "Harbour View" }),
        { type: "finish", reason: "tool_calls" },
      ],
      (request) => [
        say(`Booking ${answerIn(request)}. `),
        ...call("call_8", "book_hotel", { hotel: answerIn(request) }),
        ...call("call_9", "local_guide", { city: "Lisbon" }),
        { type: "finish", reason: "tool_calls" },
      ],
      (request) => [say(`Done: ${answerIn(request)} is booked for 3 nights.`), { type: "finish", reason: "stop" }],
    ],
    { delay: 30 },
  );
}
