/**
 * How a bench of its own (the loop, MCP, isolation, BullMQ, memory) hands its targets to
 * `npm run bench`: each target is `{ id, target, met, figure }` (met: true, false, or null when
 * not measured), printed here as met/missed and, when the bench runs under `bench/run.mjs`,
 * appended as one JSON line to the file it names in TOOLRX_BENCH_TARGETS. A measured row with no
 * target of its own (new work whose cost is shown, not yet held to a figure) is
 * `{ id, target, met: null, figure, row: true }` and prints as `row`.
 */
import { appendFileSync } from "node:fs";

/** Print `targets` and pass them to the run that started this bench, if any. */
export function reportTargets(targets) {
  for (const t of targets) {
    if (typeof t.id !== "string" || typeof t.target !== "string" || typeof t.figure !== "string" || ![true, false, null].includes(t.met)) {
      throw new TypeError(`a bench target needs a string id, target and figure and a met of true, false or null; got ${JSON.stringify(t)}`);
    }
  }
  console.log("\nTargets");
  for (const t of targets) console.log(`  ${t.row === true ? "row   " : verdict(t.met)}  ${t.target}: ${t.figure}`);
  const file = process.env.TOOLRX_BENCH_TARGETS;
  if (file) appendFileSync(file, `${JSON.stringify(targets)}\n`);
}

/** The word a target's line starts with. */
export function verdict(met) {
  return met === true ? "met   " : met === false ? "MISSED" : "n/a   ";
}
