#!/usr/bin/env node
/**
 * The journal's own per-call work, without the loop: `RunJournal` (internal, so bundled from src/
 * with esbuild) records a call and its outcome for 500 calls a run, in turns of 10 flushed at each
 * turn's end, on `MemoryJournalStore`, on a bare array that keeps the entries (no key, no lease)
 * and on a store that keeps nothing. CPU time per call over the same run recording no call (its
 * open and end), medians over the rounds. Issue 46: splits the journal's cost into its own work
 * (building and appending records), the keeping any in-memory store must do, and the lease check.
 *
 *   node bench/journal-work.mjs [--rounds 15]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

const rounds = Number(process.argv[process.argv.indexOf("--rounds") + 1]) || 15;
const dir = mkdtempSync(join(tmpdir(), "toolrx-journal-work-"));
const outfile = join(dir, "journal.mjs");
await build({
  entryPoints: [new URL("../src/agent/journal/index.ts", import.meta.url).pathname],
  bundle: true,
  format: "esm",
  platform: "node",
  outfile,
  logLevel: "warning",
});
const { RunJournal, MemoryJournalStore, checkJournalOptions } = await import(pathToFileURL(outfile).href);
rmSync(dir, { recursive: true, force: true });

const CALLS = 500;
const TURN = 10;
const REPEAT = 200;
const calls = Array.from({ length: CALLS }, (_, i) => ({ id: `c${i}`, name: "echo", arguments: { n: i } }));
const answers = calls.map((c) => ({ role: "tool", toolCallId: c.id, name: "echo", content: '{"n":1}' }));
let kept = [];
const stores = {
  memory: new MemoryJournalStore(),
  array: {
    acquire: () => {
      kept = [];
      return [];
    },
    append: (_key, _owner, entries) => {
      for (const entry of entries) kept.push(entry);
    },
    renew: () => true,
    release: () => {},
  },
  nothing: { acquire: () => [], append: () => {}, renew: () => true, release: () => {} },
};
let keys = 0;
async function run(store, record) {
  const journal = await RunJournal.open(checkJournalOptions({ store, conversationKey: `w${keys++}`, retainMs: 0 }), [{ role: "user", content: "go" }]);
  if (record)
    for (let i = 0; i < CALLS; i++) {
      const turn = Math.floor(i / TURN);
      journal.recordCall("model", turn, calls[i], "text", undefined);
      journal.recordOutcome("model", turn, answers[i]);
      if (i % TURN === TURN - 1) journal.flush();
    }
  await journal.end("max_turns");
}
async function cpu(store, record) {
  const start = process.cpuUsage();
  for (let r = 0; r < REPEAT; r++) await run(store, record);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / REPEAT;
}
const median = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];
const ns = Object.fromEntries(Object.keys(stores).map((name) => [name, []]));
for (let i = 0; i < 3; i++) for (const store of Object.values(stores)) await cpu(store, true);
for (let r = 0; r < rounds; r++)
  for (const [name, store] of Object.entries(stores)) ns[name].push(((await cpu(store, true)) - (await cpu(store, false))) * (1000 / CALLS));
console.log(`journal work per call, ${rounds} rounds of ${REPEAT} runs of ${CALLS} calls, CPU time, medians, Node ${process.version}`);
console.log(`  MemoryJournalStore                          ${median(ns.memory).toFixed(0)} ns`);
console.log(`  a bare array keeping the entries            ${median(ns.array).toFixed(0)} ns`);
console.log(`  a store that keeps nothing                  ${median(ns.nothing).toFixed(0)} ns (the journal's own work)`);
