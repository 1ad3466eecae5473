#!/usr/bin/env node
/**
 * The agent loop's own cost: a scripted model of TURNS turns × CALLS tool calls, run by
 * `runAgent`, against `streamToolCalls` alone on the same calls (each turn's calls fed as an
 * Observable, turn after turn, as the loop does). Both read the same script through the same
 * scripted model, so what differs is the loop: turns, messages, events, the terminal order.
 *
 * CPU time (process.cpuUsage, user + system), paired rounds in one process: every round runs both
 * systems, in alternating order, at 10 and at 1 call per turn. The marginal cost of a call is the
 * difference between the two sizes (per call), so the loop's per-call overhead is measured apart
 * from its per-turn cost. Medians over the rounds.
 *
 *   npm run bench:agent                (builds first; imports dist/)
 *   node bench/agent.mjs --rounds 40
 *   node bench/agent.mjs --quick       (5 rounds)
 *
 * Target: `runAgent` costs at most 1.05× `streamToolCalls` per call at 10 calls a turn (the shape the
 * goal is held on: the loop's excess is per call, and at 1 call a turn, reported beside it, the
 * loop's per-turn work costs less than the baseline's `streamToolCalls` set up per turn), with each
 * turn's messages collected and the model given the conversation as it stands (what any loop must
 * also do; the model was given the first message alone every turn until issue 46's profile showed
 * the loop's copy of the conversation, 550 messages on average here, among its own per-turn work);
 * the ratio to `streamToolCalls` alone is shown beside it. Each ratio is taken within a round; the median and the rounds' 25th–75th
 * percentiles are reported.
 */
import { from, filter, map } from "rxjs";
import { z } from "zod";
import { defineTool, ok, runAgent, RunResultCollector, streamAgent, streamToolCalls } from "../dist/index.js";
import { scriptedModel } from "../dist/testing/index.js";
import { reportTargets } from "./lib/report-targets.mjs";
import { quantile } from "./lib/stats.mjs";

const TURNS = 100;
const CALLS = 10;
const REPEAT = 10; // runs per measurement, so each one lasts tens of milliseconds
const rounds = Number(process.argv[process.argv.indexOf("--rounds") + 1]) || (process.argv.includes("--quick") ? 5 : 25);

const echo = defineTool({ name: "echo", description: "", schema: z.object({ n: z.number() }), handler: ({ n }) => ok({ n }) });
const tools = [echo];
const messages = [{ role: "user", content: "go" }];

/** The script: TURNS turns of `calls` tool calls each, then `finish`. Built once per size. */
function script(calls) {
  return Array.from({ length: TURNS }, (_, t) => [
    ...Array.from({ length: calls }, (_, c) => ({ type: "tool_call", call: { id: `t${t}c${c}`, name: "echo", arguments: { n: c } } })),
    { type: "finish", reason: "tool_calls" },
  ]);
}
const scripts = { [CALLS]: script(CALLS), 1: script(1) };

let handled = 0;
const counting = defineTool({
  ...echo,
  name: "echo",
  handler: ({ n }) => {
    handled++;
    return ok({ n });
  },
});

async function loop(calls) {
  const model = scriptedModel(scripts[calls]);
  const result = await runAgent({ model, tools: [counting], messages, maxTurns: TURNS });
  if (result.haltedReason !== "max_turns" || result.messages.length !== 1 + TURNS * (1 + calls)) throw new Error(`loop: ${result.haltedReason}`);
}

/**
 * Turn after turn, each turn's calls as an Observable into streamToolCalls. Turns chain on the
 * previous one's completion, not on a promise per turn, so that (like the loop on a synchronous
 * model) a whole run costs one promise: the comparison is not charged for microtask hops.
 */
function turns(calls, onTurn, done, messagesOf = () => messages) {
  return new Promise((resolve, reject) => {
    const model = scriptedModel(scripts[calls]);
    const { signal } = new AbortController(); // one per run, as the loop has
    let turn = 0;
    // A loop, not recursion, as in the loop itself: each turn's subscriptions end before the next starts.
    let looping = false;
    let again = false;
    const next = () => {
      again = true;
      if (looping) return;
      looping = true;
      while (again) {
        again = false;
        if (turn === TURNS) {
          resolve(done());
          break;
        }
        const request = { messages: messagesOf(), tools, turn: turn++, signal };
        onTurn(model(request), { error: reject, complete: next });
      }
      looping = false;
    };
    next();
  });
}

/** The same run as `loop`, watched: every event of streamAgent reaches a subscriber (per turn: started, model_reply, completed, and 3 per call). */
function watched(calls) {
  return new Promise((resolve, reject) => {
    let events = 0;
    streamAgent({ model: scriptedModel(scripts[calls]), tools: [counting], messages, maxTurns: TURNS }).subscribe({
      next: () => events++,
      error: reject,
      complete: () => (events === TURNS * (3 * calls + 3) + 1 ? resolve() : reject(new Error(`watched: ${events} events`))),
    });
  });
}

function alone(calls) {
  let events = 0;
  return turns(
    calls,
    (modelEvents, { error, complete }) => {
      const calls$ = from(modelEvents).pipe(
        filter((e) => e.type === "tool_call"),
        map((e) => e.call),
      );
      streamToolCalls(calls$, [counting]).subscribe({ next: () => events++, error, complete });
    },
    () => {
      if (events !== TURNS * calls * 3) throw new Error(`alone: ${events} events`);
    },
  );
}

/**
 * `alone`, plus the part of a loop no loop can skip: each turn's tool messages, collected in order,
 * and the model asked with the conversation as it stands (a copy, as the AI SDK's loop makes one
 * per step: a model may keep its request, and the next turn's messages must not change it).
 */
function collected(calls) {
  const conversation = [...messages];
  return turns(
    calls,
    (modelEvents, { error, complete }) => {
      const turnCalls = [];
      const calls$ = from(modelEvents).pipe(
        filter((e) => e.type === "tool_call"),
        map((e) => {
          turnCalls.push(e.call);
          return e.call;
        }),
      );
      const collector = new RunResultCollector();
      streamToolCalls(calls$, [counting]).subscribe({
        next: (e) => collector.add(e),
        error,
        complete: () => {
          conversation.push({ role: "assistant", content: "", toolCalls: turnCalls }, ...collector.result().messages);
          complete();
        },
      });
    },
    () => {
      if (conversation.length !== 1 + TURNS * (1 + calls)) throw new Error("collected: wrong conversation");
    },
    () => conversation.slice(),
  );
}

async function cpu(fn, calls) {
  const before = handled;
  const start = process.cpuUsage();
  for (let i = 0; i < REPEAT; i++) await fn(calls);
  const used = process.cpuUsage(start);
  if (handled - before !== REPEAT * TURNS * calls) throw new Error("not every handler ran exactly once");
  return (used.user + used.system) / REPEAT; // µs per run of TURNS turns
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const spread = (xs) => `${quantile(xs, 0.25).toFixed(2)}–${quantile(xs, 0.75).toFixed(2)}×`;

// Warm up both paths at both sizes.
for (let i = 0; i < 5; i++) for (const calls of [CALLS, 1]) for (const fn of [loop, alone, collected, watched]) await cpu(fn, calls);

const names = new Map([
  [loop, "loop"],
  [alone, "alone"],
  [collected, "collected"],
  [watched, "watched"],
]);
const rows = {
  loop10: [],
  alone10: [],
  collected10: [],
  watched10: [],
  loop1: [],
  alone1: [],
  collected1: [],
  ratio: [],
  ratioCollected: [],
  ratioCollected1: [],
  perCallLoop: [],
  perCallAlone: [],
  perCallCollected: [],
  perTurn: [],
};
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? [loop, alone, collected, watched] : [watched, collected, alone, loop];
  const t = {};
  for (const calls of [CALLS, 1]) for (const fn of order) t[`${names.get(fn)}${calls === 1 ? 1 : 10}`] = await cpu(fn, calls);
  for (const k of ["loop10", "alone10", "collected10", "watched10", "loop1", "alone1", "collected1"]) rows[k].push(t[k]);
  rows.ratio.push(t.loop10 / t.alone10);
  rows.ratioCollected.push(t.loop10 / t.collected10);
  rows.ratioCollected1.push(t.loop1 / t.collected1);
  rows.perCallLoop.push((t.loop10 - t.loop1) / (TURNS * (CALLS - 1)));
  rows.perCallAlone.push((t.alone10 - t.alone1) / (TURNS * (CALLS - 1)));
  rows.perCallCollected.push((t.collected10 - t.collected1) / (TURNS * (CALLS - 1)));
  rows.perTurn.push((t.loop1 - t.alone1) / TURNS);
}

const m = Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, median(v)]));
const addsPerCall = m.perCallLoop - m.perCallAlone;
const addsPct = (100 * addsPerCall) / m.perCallAlone;
const f = (us) => `${us.toFixed(2)} µs`;
console.log(`agent loop bench: ${TURNS} turns × ${CALLS} calls (and × 1), ${rounds} paired rounds, CPU time, medians, Node ${process.version}\n`);
const line = (label, text) => console.log(`  ${label.padEnd(38)}${text}`);
const perCall = (us) => `${f(us / (TURNS * CALLS))} per call  (${(us / 1000).toFixed(2)} ms per run)`;
line(`runAgent, ${TURNS}×${CALLS}`, perCall(m.loop10));
line("streamAgent, every event watched", perCall(m.watched10));
line("streamToolCalls alone, same calls", perCall(m.alone10));
line("… plus each turn's messages", `${perCall(m.collected10)}: what any loop must also do (messages collected, the model given the conversation)`);
line(`ratio at ${CALLS} calls per turn`, `${m.ratio.toFixed(3)}× streamToolCalls alone, ${m.ratioCollected.toFixed(3)}× with the messages collected`);
line("marginal cost of a call", `loop ${f(m.perCallLoop)}, alone ${f(m.perCallAlone)}: the loop adds ${f(addsPerCall)} (${addsPct.toFixed(1)}%)`);
line("", `(with the messages collected: ${f(m.perCallCollected)}, so the loop adds ${f(m.perCallLoop - m.perCallCollected)} over that)`);
line("the loop's own cost per turn", f(m.perTurn));
line(
  "ratio at 1 call per turn",
  `${m.ratioCollected1.toFixed(3)}× with the messages collected (rounds: ${spread(rows.ratioCollected1)}): the shape where per-turn work weighs most`,
);
reportTargets([
  {
    id: "loop-overhead",
    target: `runAgent ≤ 1.05× streamToolCalls with each turn's messages collected and the model given the conversation, per call (${TURNS} turns × ${CALLS} calls)`,
    met: m.ratioCollected <= 1.05,
    figure: `${m.ratioCollected.toFixed(3)}× (rounds: ${spread(rows.ratioCollected)}; ${f(m.loop10 / (TURNS * CALLS))} vs ${f(m.collected10 / (TURNS * CALLS))} per call); ${m.ratio.toFixed(3)}× streamToolCalls alone (rounds: ${spread(rows.ratio)}); a call's marginal cost +${addsPct.toFixed(0)}%, ${f(m.perTurn)} per turn; at 1 call a turn ${m.ratioCollected1.toFixed(3)}× with the messages collected`,
  },
]);
