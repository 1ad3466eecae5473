/** Print the rows as one aligned table per scenario, then the targets. */
const count = (v) => (typeof v === "number" ? v.toLocaleString("en-US") : "");
const num = (v) => (v === null || v === undefined ? "—" : String(v));
const ratio = (r) => (r == null || r.median == null ? "—" : r.p25 == null ? `${r.median}×` : `${r.median}× (${r.p25}–${r.p75})`);

const PER_CALL = [
  ["system", (r) => r.system],
  ["n", (r) => count(r.n)],
  ["limit", (r) => num(r.concurrency)],
  ["CPU µs/call", (r) => num(r.cpuUsPerCall)],
  ["× contract", (r) => ratio(r.xContract)],
  ["× mergeMap", (r) => ratio(r.xFloor)],
  ["× old limit", (r) => ratio(r.xLimit)],
];

const COLUMNS = {
  sync: PER_CALL,
  async: PER_CALL,
  scaling: [
    ["system", (r) => r.system],
    ["n", (r) => count(r.n)],
    ["CPU µs/call", (r) => num(r.cpuUsPerCall)],
    ["heap mid-run MB", (r) => num(r.heapMidRunMb)],
    ["retained B/call", (r) => num(r.retainedBytesPerCall)],
  ],
  queued: [
    ["system", (r) => r.system],
    ["queued", (r) => count(r.n)],
    ["outcome", (r) => r.outcome ?? "—"],
    ["CPU µs/call", (r) => num(r.cpuUsPerCall)],
  ],
  deadline: [
    ["system", (r) => r.system],
    ["n", (r) => count(r.n)],
    ["late ms (median)", (r) => num(r.lateMedianMs)],
    ["late ms (p99)", (r) => num(r.lateP99Ms)],
  ],
  concurrency: [
    ["system", (r) => r.system],
    ["n", (r) => count(r.n)],
    ["limit", (r) => num(r.concurrency)],
    ["wall ms", (r) => num(r.wallMs)],
    ["efficiency", (r) => num(r.efficiency)],
  ],
};

const TITLES = {
  sync: "sync: 10,000 synchronous handlers, limit 16, CPU time; ratios paired per round (median, 25th–75th percentile)",
  async: "async: 10,000 handlers returning a settled promise, limit 16, default 30 s deadline on; CPU time, paired ratios",
  scaling: "scaling: each system and size alone in a process; memory is heap after a full GC",
  queued: "queued: synchronous calls queued behind 16 slow ones (20 ms), limit 16, each case in a process of its own",
  deadline: "deadline: never-settling handlers, all at once, 50 ms deadline; lateness past it",
  concurrency: "concurrency: 64 × 20 ms sleeps at limit 8 (ideal 160 ms), wall time",
};

export function printTable(rows, targets) {
  for (const scenario of [...new Set(rows.map((r) => r.scenario))]) {
    const columns = [...(COLUMNS[scenario] ?? COLUMNS.sync), ["note", (r) => r.note ?? ""]];
    const group = rows.filter((r) => r.scenario === scenario);
    const cells = group.map((r) => columns.map(([, get]) => String(get(r))));
    const widths = columns.map(([title], c) => Math.max(title.length, ...cells.map((row) => row[c].length)));
    console.log(`\n${TITLES[scenario] ?? scenario}`);
    console.log(
      columns
        .map(([title], c) => title.padEnd(widths[c]))
        .join("  ")
        .trimEnd(),
    );
    for (const row of cells)
      console.log(
        row
          .map((cell, c) => cell.padEnd(widths[c]))
          .join("  ")
          .trimEnd(),
      );
  }
  if (targets.length === 0) return;
  console.log("\ntargets");
  for (const t of targets) console.log(`${t.row === true ? "row   " : t.met === null ? "n/a   " : t.met ? "met   " : "MISSED"}  ${t.target}: ${t.figure}`);
}
