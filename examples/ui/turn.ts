import { z } from "zod";
import { askUser, defineTool, error, ok, type ToolCall } from "../../src/index.js";
import { sleep } from "../sleep.js";

/** The tools of the scripted turn: each one shows a different state in the timeline. */
export const tools = [
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
];

/** The calls a scripted model asks for in one turn. */
export const calls: ToolCall[] = [
  { id: "call_1", name: "weather", arguments: { city: "Lisbon" } },
  { id: "call_2", name: "weather", arguments: { city: "Reykjavik" } },
  { id: "call_3", name: "book_flight", arguments: { to: "Lisbon" } },
  { id: "call_4", name: "choose_hotel", arguments: { city: "Lisbon" } },
  { id: "call_5", name: "weather", arguments: { city: 42 } },
  { id: "call_6", name: "export_report", arguments: { pages: 8 } },
  { id: "call_7", name: "crawl_reviews", arguments: { hotel: "Harbour View" } },
];
