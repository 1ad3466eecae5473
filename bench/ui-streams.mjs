#!/usr/bin/env node
/**
 * What a UI stream costs over an agent run: `streamAgent` (a scripted model of TURNS turns, each
 * with text deltas and CALLS tool calls) watched bare, then piped through `toUIMessageChunks`
 * (toolrx/ai-sdk) and through `toAgUiEvents` (toolrx/ag-ui). The converter's cost per agent
 * event is the difference over the bare watched run, divided by the agent events it read.
 *
 * CPU time (process.cpuUsage, user + system), paired rounds in one process (each round runs the
 * three in rotating order); medians with the rounds' 25th–75th percentiles.
 *
 *   npm run -s build && node bench/ui-streams.mjs [--quick] [--rounds 25]
 *
 * A row, not a target: the figures say what the converters cost per event next to the run itself.
 */
import { z } from "zod";
import { defineTool, ok, streamAgent } from "../dist/index.js";
import { toAgUiEvents } from "../dist/ag-ui/index.js";
import { toUIMessageChunks } from "../dist/ai-sdk/index.js";
import { scriptedModel } from "../dist/testing/index.js";
import { reportTargets } from "./lib/report-targets.mjs";
import { median, quantile } from "./lib/stats.mjs";

const TURNS = 50;
const CALLS = 5;
const DELTAS = 10;
const REPEAT = 5;
const rounds = Number(process.argv[process.argv.indexOf("--rounds") + 1]) || (process.argv.includes("--quick") ? 5 : 25);

const echo = defineTool({ name: "echo", description: "", schema: z.object({ n: z.number() }), handler: ({ n }) => ok({ n }) });
const messages = [{ role: "user", content: "go" }];
const script = Array.from({ length: TURNS }, (_, t) => [
  ...Array.from({ length: DELTAS }, (_, d) => ({ type: "text_delta", text: `word ${t}.${d} ` })),
  ...Array.from({ length: CALLS }, (_, c) => ({ type: "tool_call", call: { id: `t${t}c${c}`, name: "echo", arguments: { n: c } } })),
  { type: "finish", reason: "tool_calls" },
]);

/** One run, its events through `convert` (or none); resolves to what the subscriber got. */
function run(convert) {
  return new Promise((resolve, reject) => {
    let got = 0;
    const events = streamAgent({ model: scriptedModel(script), tools: [echo], messages, maxTurns: TURNS });
    (convert === undefined ? events : events.pipe(convert())).subscribe({
      next: () => got++,
      error: reject,
      complete: () => resolve(got),
    });
  });
}

const systems = {
  bare: undefined,
  "toUIMessageChunks (toolrx/ai-sdk)": () => toUIMessageChunks(),
  "toAgUiEvents (toolrx/ag-ui)": () => toAgUiEvents({ threadId: "t", runId: "r", messages }),
};

/** Agent events a run has (counted on the bare run), and items each converter wrote. */
let events = 0;
const outputs = {};
async function cpu(name) {
  const start = process.cpuUsage();
  for (let i = 0; i < REPEAT; i++) {
    const got = await run(systems[name]);
    if (name === "bare") events = got;
    else if (got < TURNS * CALLS) throw new Error(`${name}: wrote ${got} items for ${TURNS * CALLS} calls`);
    else outputs[name] = got;
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / REPEAT;
}

const names = Object.keys(systems);
for (let i = 0; i < 3; i++) for (const name of names) await cpu(name); // warm up
const per = Object.fromEntries(names.map((n) => [n, []]));
const perEvent = Object.fromEntries(names.slice(1).map((n) => [n, []]));
for (let r = 0; r < rounds; r++) {
  const order = names.map((_, i) => names[(i + r) % names.length]);
  const t = {};
  for (const name of order) t[name] = await cpu(name);
  for (const name of names) per[name].push(t[name]);
  for (const name of names.slice(1)) perEvent[name].push((t[name] - t.bare) / events);
}

const us = (x) => `${x.toFixed(3)} µs`;
console.log(
  `UI streams bench: streamAgent of ${TURNS} turns × (${DELTAS} text deltas + ${CALLS} calls), ${events.toLocaleString("en-US")} agent events a run, ${rounds} paired rounds, CPU time, medians, Node ${process.version}\n`,
);
console.log(`  streamAgent, every event watched      ${us(median(per.bare) / events)} per agent event`);
const rows = [];
for (const name of names.slice(1)) {
  const m = median(perEvent[name]);
  const spread = `${us(quantile(perEvent[name], 0.25))}–${us(quantile(perEvent[name], 0.75))}`;
  const ratio = median(per[name].map((x, i) => x / per.bare[i]));
  console.log(`  ${name.padEnd(37)}+${us(m)} per agent event (rounds: ${spread}), ${ratio.toFixed(3)}× the watched run, ${outputs[name]} items written`);
  rows.push({
    id: `ui-stream-${name.split(" ")[0]}`,
    target: `${name.split(" ")[0]} over a streamAgent run: CPU per agent event on top of watching the run`,
    met: null,
    row: true,
    figure: `+${us(m)} per event (rounds: ${spread}; the run itself ${us(median(per.bare) / events)} per event), ${ratio.toFixed(2)}× the watched run`,
  });
}
reportTargets(rows);
