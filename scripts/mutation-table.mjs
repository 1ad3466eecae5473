#!/usr/bin/env node
/**
 * The per-file score table of docs/mutation.md, from every Stryker report in
 * `reports/incremental/` (the slices of `scripts/mutate-slices.mjs` and `npm run mutate:changed`,
 * committed so runs add up). Rewrites what lies between the `mutation-table` markers.
 *
 *   node scripts/mutation-table.mjs
 *
 * Score = detected (killed + timed out) / (detected + survived + not reached), as Stryker counts
 * it. When two reports hold the same file, the one committed last wins (an uncommitted one first).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dir = join(root, "reports", "incremental");
const doc = join(root, "docs", "mutation.md");
const START = "<!-- mutation-table:start (scripts/mutation-table.mjs writes this) -->";
const END = "<!-- mutation-table:end -->";

const git = (...args) => execFileSync("git", args, { cwd: root, encoding: "utf8" }).trim();

/** When and at which commit a report was committed; an uncommitted one sorts last (newest). */
function stampOf(file) {
  const rel = `reports/incremental/${file}`;
  const changed = git("status", "--porcelain", "--", rel) !== "";
  if (changed) return { order: Number.MAX_SAFE_INTEGER, label: "not committed yet" };
  const [time, hash, day] = git("log", "-1", "--format=%ct %h %cs", "--", rel).split(" ");
  return { order: Number(time), label: `${day}, ${hash}` };
}

const rows = new Map();
const reports = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".json")) : [];
for (const file of reports) {
  const report = JSON.parse(readFileSync(join(dir, file), "utf8"));
  const stamp = stampOf(file);
  for (const [path, { mutants }] of Object.entries(report.files)) {
    const count = (...states) => mutants.filter((m) => states.includes(m.status)).length;
    const row = {
      path,
      detected: count("Killed", "Timeout"),
      survived: count("Survived"),
      unreached: count("NoCoverage"),
      other: count("CompileError", "RuntimeError", "Ignored", "Pending"),
      run: file.replace(/\.json$/, ""),
      stamp,
    };
    const known = rows.get(path);
    if (known === undefined || known.stamp.order <= stamp.order) rows.set(path, row);
  }
}

const sorted = [...rows.values()].sort((a, b) => a.path.localeCompare(b.path));
const pct = (d, all) => (all === 0 ? "–" : `${((100 * d) / all).toFixed(1)}%`);
const total = sorted.reduce((t, r) => ({ d: t.d + r.detected, u: t.u + r.survived + r.unreached }), { d: 0, u: 0 });
const table = [
  "| file | score | detected / survived / not reached | run (report in `reports/incremental/`), committed |",
  "|---|---|---|---|",
  ...sorted.map(
    (r) =>
      `| \`${r.path}\` | ${pct(r.detected, r.detected + r.survived + r.unreached)} | ${r.detected} / ${r.survived} / ${r.unreached} | ${r.run}, ${r.stamp.label} |`,
  ),
  `| all ${sorted.length} files measured | ${pct(total.d, total.d + total.u)} | ${total.d} / ${total.u} undetected | |`,
].join("\n");

const text = readFileSync(doc, "utf8");
const from = text.indexOf(START);
const to = text.indexOf(END);
if (from < 0 || to < from) throw new Error(`docs/mutation.md has no ${START} … ${END} markers`);
const next = `${text.slice(0, from + START.length)}\n\n${table}\n\n${text.slice(to)}`;
writeFileSync(doc, next);
console.log(`docs/mutation.md: ${sorted.length} files from ${reports.length} report(s)`);
