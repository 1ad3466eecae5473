/**
 * Isolated handlers with a hard kill: CPU-bound and stuck handlers run in worker threads, so
 * the main thread stays free, a stuck handler is answered `timeout` on time, and its thread is
 * terminated after the grace period (reported on `onCallReport` as `fate: "killed"`).
 *
 * Run: npm run example:isolated
 */
import { z } from "zod";
import { defineTool, ok, runToolCalls, type CallReport } from "../src/index.js";
import { workerPool } from "../src/node/index.js";

const pool = workerPool({ size: 2, spares: 1, grace: 200 });
const module = new URL("./isolated-handlers.mjs", import.meta.url);

const fib = pool.tool({
  name: "fib",
  description: "The n-th Fibonacci number",
  schema: z.object({ n: z.number().int().min(0).max(40) }),
  module,
  export: "fib",
});
const stuck = pool.tool({ name: "stuck", description: "Never returns", schema: z.object({}), module, export: "stuck" });
const polite = pool.tool({ name: "polite", description: "Slow, but stops when asked", schema: z.object({}), module, export: "polite" });
// Tools without a module run in-process, as with the default executor.
const clock = defineTool({ name: "clock", description: "The time", schema: z.object({}), handler: () => ok("12:00") });

await pool.warm(); // threads start before the first deadline does
let ticks = 0;
const ticker = setInterval(() => ticks++, 10); // runs only while the main thread is free
const reports: CallReport[] = [];
const started = performance.now();
const { messages } = await runToolCalls(
  [
    { id: "1", name: "fib", arguments: { n: 30 } },
    { id: "2", name: "stuck", arguments: {} },
    { id: "3", name: "polite", arguments: {} },
    { id: "4", name: "clock", arguments: {} },
  ],
  [fib, stuck, polite, clock],
  { toolExecutor: pool, toolTimeout: 500, onCallReport: (r) => reports.push(r) },
);
const took = Math.round(performance.now() - started);
clearInterval(ticker);
for (const m of messages) console.log(`${m.name.padEnd(6)} ${m.content}`);
console.log(`answered in ${took} ms; the main thread ticked ${ticks} times meanwhile`);

await new Promise((resolve) => setTimeout(resolve, 400)); // the grace period, for the kill report
for (const r of reports)
  if (r.type === "late_settlement")
    console.log(`late: ${r.toolName} ${r.settled ? `settled: ${JSON.stringify(r.result)}` : `fate: ${r.fate ?? "still running"}`}`);
await pool.close();

const fate = reports.find((r) => r.type === "late_settlement" && r.toolName === "stuck");
if (
  messages[0]?.content !== "832040" ||
  !messages[1]?.content.includes("timeout") ||
  fate?.type !== "late_settlement" ||
  fate.settled ||
  fate.fate !== "killed"
) {
  console.error("example: unexpected outcome");
  process.exit(1);
}
