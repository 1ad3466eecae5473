import { z } from "zod";
import { askUser, defineTool, ok, type Message, type Model, type ModelEvent } from "../../src/index.js";
import { sleep } from "../sleep.js";

/** The tools of the example: a quick call, one with progress, a question, and one that needs approval. */
export const tools = [
  defineTool({
    name: "weather",
    description: "Weather by city",
    schema: z.object({ city: z.string() }),
    handler: async ({ city }, ctx) => {
      await sleep(300, ctx.signal);
      return ok({ city, tempC: 18 });
    },
  }),
  defineTool({
    name: "export_report",
    description: "Export the trip report, page by page",
    schema: z.object({ pages: z.number().int().positive() }),
    handler: async ({ pages }, ctx) => {
      for (let page = 1; page <= pages; page++) {
        await sleep(300, ctx.signal);
        ctx.progress({ progress: page, total: pages, message: `page ${page} of ${pages}` });
      }
      return ok({ pages, file: "trip-report.pdf" });
    },
  }),
  defineTool({
    name: "choose_hotel",
    description: "Ask the traveller which hotel",
    schema: z.object({ city: z.string() }),
    handler: ({ city }) => askUser(`Which hotel in ${city}?`, { choices: ["Harbour View", "Old Town Inn"] }),
  }),
  defineTool({
    name: "book_hotel",
    description: "Book the hotel the traveller chose (pays a deposit: needs approval)",
    schema: z.object({ hotel: z.string() }),
    needsApproval: true,
    handler: async ({ hotel }, ctx) => {
      await sleep(200, ctx.signal);
      return ok({ hotel, nights: 3, confirmation: "HV-2231" });
    },
  }),
];

/** A call as a provider streams it: announced, its arguments in two pieces, then whole. */
function call(id: string, name: string, args: Record<string, unknown>): ModelEvent[] {
  const text = JSON.stringify(args);
  const half = Math.ceil(text.length / 2);
  return [
    { type: "tool_input_started", id, name },
    { type: "tool_input_delta", id, delta: text.slice(0, half) },
    { type: "tool_input_delta", id, delta: text.slice(half) },
    { type: "tool_call", call: { id, name, arguments: args, rawArguments: text } },
  ];
}

/** The user's last words: the answer to the hotel question. */
function lastUserWords(messages: readonly Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as Message;
    if (m.role === "user") return m.content;
  }
  return "";
}

/** What became of the booking, from its tool message. */
function bookingOf(messages: readonly Message[]): string {
  const answer = messages.find((m) => m.role === "tool" && m.name === "book_hotel");
  if (answer?.role !== "tool") return "Nothing was booked.";
  return answer.isError ? "I did not book it." : `Booked: ${answer.content}.`;
}

/**
 * A scripted model (no key, no network) that reads the conversation: it plans, asks which hotel,
 * books the one the user chose, and says so. Each event comes a little later, as a model's would.
 */
export const tripModel: Model = async function* (request) {
  const turns = request.messages.filter((m) => m.role === "assistant" && (m.toolCalls?.length ?? 0) > 0).length;
  const script: ModelEvent[] =
    turns === 0
      ? [
          { type: "text_delta", text: "Let me plan your weekend in Lisbon. " },
          ...call("call_weather", "weather", { city: "Lisbon" }),
          ...call("call_report", "export_report", { pages: 10 }),
          ...call("call_hotel", "choose_hotel", { city: "Lisbon" }),
          { type: "finish", reason: "tool_calls" },
        ]
      : turns === 1
        ? [...call("call_book", "book_hotel", { hotel: lastUserWords(request.messages) }), { type: "finish", reason: "tool_calls" }]
        : [
            { type: "text_delta", text: `${bookingOf(request.messages)} ` },
            { type: "text_delta", text: "Have a good trip!" },
            { type: "finish", reason: "stop" },
          ];
  for (const event of script) {
    await sleep(60, request.signal);
    yield event;
  }
};
