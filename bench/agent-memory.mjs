#!/usr/bin/env node --expose-gc
/**
 * What a long agent run holds: 1,000 turns of 10 tool calls each (200 with --quick), measured
 * while the run is still alive (the model is asked for its last turn and has not answered),
 * against the conversation alone (the same messages, the run finished and let go). Heap after a
 * full GC. The target: the live run holds no more than its conversation, within 10% (or 256 KB,
 * whichever is more): per-turn state (batches, pools, subscriptions, events, closures) must be
 * released as each turn ends.
 *
 *   npm run -s build && node --expose-gc bench/agent-memory.mjs [--quick]
 */
import { from, Observable } from "rxjs";
import { z } from "zod";
import { defineTool, ok, runAgent } from "../dist/index.js";
import { reportTargets } from "./lib/report-targets.mjs";
import { heapAfterGc } from "./lib/stats.mjs";

const TURNS = process.argv.includes("--quick") ? 200 : 1_000;
const CALLS = 10;
const echo = defineTool({ name: "echo", description: "", schema: z.object({ n: z.number() }), handler: ({ n }) => ok({ n, text: `result ${n}` }) });
const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(2)} MB`;

/** A short run first, so the code it compiles and the modules it loads are in the baseline. */
async function warmUp() {
  const model = (request) =>
    from(
      request.turn < 20
        ? [
            { type: "tool_call", call: { id: `w${request.turn}`, name: "echo", arguments: { n: 1 } } },
            { type: "finish", reason: "tool_calls" },
          ]
        : [{ type: "finish", reason: "stop" }],
    );
  await runAgent({ model, tools: [echo], messages: [{ role: "user", content: "warm up" }] });
}
await warmUp();

const before = heapAfterGc();
let alive;
let release;
const last = new Promise((resolve) => {
  release = resolve;
});
const model = (request) => {
  if (request.turn === TURNS - 1) {
    // The last turn: measure while the run holds everything it holds, then let it finish.
    return new Observable((subscriber) => {
      queueMicrotask(() => {
        alive = heapAfterGc() - before;
        subscriber.next({ type: "text_delta", text: "done" });
        subscriber.next({ type: "finish", reason: "stop" });
        subscriber.complete();
        release();
      });
    });
  }
  const t = request.turn;
  return from([
    ...Array.from({ length: CALLS }, (_, c) => ({ type: "tool_call", call: { id: `t${t}c${c}`, name: "echo", arguments: { n: c } } })),
    { type: "finish", reason: "tool_calls" },
  ]);
};
const result = await runAgent({ model, tools: [echo], messages: [{ role: "user", content: "go" }], maxTurns: TURNS + 1 });
await last;
if (result.haltedReason !== "completed") throw new Error(`the run ended ${result.haltedReason}`);
// Only the conversation is left now.
const conversation = heapAfterGc() - before;
const kept = result.messages.length;

const allowed = Math.max(256 * 1024, conversation * 0.1);
console.log(`agent memory: ${TURNS} turns × ${CALLS} calls, heap after GC above the start`);
console.log(`  the run alive, asking for its last turn  ${mb(alive)}`);
console.log(`  the conversation alone (${kept} messages)  ${mb(conversation)}`);
reportTargets([
  {
    id: "loop-memory",
    target: `an agent run of ${TURNS.toLocaleString("en-US")} turns holds no more than its conversation (within ${mb(allowed)})`,
    met: alive - conversation <= allowed,
    figure: `${mb(alive)} alive vs ${mb(conversation)} for the ${kept.toLocaleString("en-US")} messages alone (${alive >= conversation ? "+" : ""}${mb(alive - conversation)})`,
  },
]);
