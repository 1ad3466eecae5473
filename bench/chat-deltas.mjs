#!/usr/bin/env node
/**
 * What `openai.chatModel` costs to read a long streamed tool call: one call whose arguments
 * (28 KB: a list of 1,000 small objects, so many deltas end with `}`) arrive in 4-character
 * deltas, as a model streams them, from an in-memory client (no HTTP). CPU time
 * (process.cpuUsage, user + system) per turn, median of the rounds, plus a text-only turn of
 * the same number of deltas as the baseline the tool call is held against.
 *
 *   npm run -s build && node bench/chat-deltas.mjs [--dist path/to/dist] [--rounds 15]
 *
 * Target: a call's arguments cost about what the same text costs, linear in its length.
 */
import { from, lastValueFrom, toArray } from "rxjs";

const arg = (name, fallback) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback);
const dist = arg("--dist", new URL("../dist", import.meta.url).pathname);
const rounds = Number(arg("--rounds", 15));
const { openai } = await import(`${dist}/providers/index.js`);

const text = JSON.stringify({ rows: Array.from({ length: 1000 }, (_, i) => ({ id: i, name: `row ${i}` })) });
const pieces = [];
for (let i = 0; i < text.length; i += 4) pieces.push(text.slice(i, i + 4));
const chunk = (delta, finish_reason = null) => ({ id: "c", model: "m", choices: [{ index: 0, delta, finish_reason }] });
const toolTurn = [
  chunk({ tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "load", arguments: "" } }] }),
  ...pieces.map((p) => chunk({ tool_calls: [{ index: 0, function: { arguments: p } }] })),
  chunk({}, "tool_calls"),
];
const textTurn = [...pieces.map((p) => chunk({ content: p })), chunk({}, "stop")];

const modelOf = (chunks) =>
  openai.chatModel({
    model: "m",
    client: {
      chat: {
        completions: {
          create: async () =>
            (async function* () {
              yield* chunks;
            })(),
        },
      },
    },
  });
const request = { messages: [{ role: "user", content: "go" }], tools: [], turn: 0, signal: new AbortController().signal };

async function cpuPerTurn(chunks, repeat = 5) {
  const model = modelOf(chunks);
  const start = process.cpuUsage();
  for (let i = 0; i < repeat; i++) await lastValueFrom(from(model(request)).pipe(toArray()));
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / repeat;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
await cpuPerTurn(toolTurn, 2);
await cpuPerTurn(textTurn, 2);
const tool = [];
const plain = [];
for (let r = 0; r < rounds; r++) {
  tool.push(await cpuPerTurn(toolTurn));
  plain.push(await cpuPerTurn(textTurn));
}
const [t, p] = [median(tool), median(plain)];
console.log(`${text.length} characters in ${pieces.length} deltas (${dist})`);
console.log(`tool call: ${t.toFixed(2)} ms CPU per turn; the same text as content: ${p.toFixed(2)} ms; ratio ${(t / p).toFixed(2)}`);
