/**
 * A dispatch recipe end to end: the model asks for one `research` call; the resolver answers it
 * by running a search, then fetching the top pages in parallel, and composes a report. Every
 * sub-step is printed as it happens through `onCallReport`.
 *
 * Run: npm run example:recipe
 */
import { z } from "zod";
import { defineTool, error, ok, runToolCalls, toolResolver, type CallReport } from "../src/index.js";
import { sleep } from "./sleep.js";

const search = defineTool({
  name: "search",
  description: "Search the knowledge base",
  schema: z.object({ q: z.string() }),
  handler: async ({ q }, ctx) => {
    await sleep(80, ctx.signal);
    return ok(`top pages for "${q}": /rxjs/mergeMap, /rxjs/timeout, /rxjs/missing`);
  },
});

const fetchPage = defineTool({
  name: "fetch_page",
  description: "Fetch a page of the knowledge base",
  schema: z.object({ path: z.string() }),
  handler: async ({ path }, ctx) => {
    await sleep(50 + path.length * 5, ctx.signal);
    return path.endsWith("missing") ? error(`404 ${path}`) : ok(`${path}: ${path.split("/").at(-1)} explained in 3 paragraphs`);
  },
});

const research = defineTool({
  name: "research",
  description: "Research a topic: search, then read the top pages",
  schema: z.object({ topic: z.string() }),
});

const resolver = toolResolver([search, fetchPage, research], {
  recipes: {
    research: (args) => ({
      serial: [{ tool: "search", label: `search "${String(args.topic)}"`, arguments: { q: args.topic } }],
      parallel: ["/rxjs/mergeMap", "/rxjs/timeout", "/rxjs/missing"].map((path) => ({
        tool: "fetch_page",
        label: path,
        // Parallel steps may read the serial context: tool name → its latest content.
        arguments: (serial) => ({ path: serial.search?.includes(path) ? path : "/index" }),
      })),
    }),
  },
});

const t0 = performance.now();
const stamp = () => `[${String(Math.round(performance.now() - t0)).padStart(4)} ms]`;
// Sub-steps arrive on the side channel, with progress and retries; this prints the steps.
const onCallReport = (e: CallReport) => {
  if (e.type !== "recipe_step_started" && e.type !== "recipe_step_succeeded" && e.type !== "recipe_step_failed") return;
  const what = e.type === "recipe_step_started" ? "started" : e.type === "recipe_step_succeeded" ? "ok" : `failed: ${e.error}`;
  console.log(`${stamp()} ${e.phase.padEnd(8)} ${e.label.padEnd(22)} ${what}`);
};

const { messages } = await runToolCalls([{ id: "call_1", name: "research", arguments: { topic: "rxjs operators" } }], resolver, {
  onCallReport,
  maxConcurrency: 2,
  toolTimeout: 5_000,
});

console.log(`\n${stamp()} tool message for ${messages[0]?.toolCallId} (isError: ${messages[0]?.isError}):\n`);
console.log(messages[0]?.content);
