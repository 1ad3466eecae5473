/** Print the rows as one aligned table per scenario. */
export function printTable(rows) {
  const columns = [
    ["system", (r) => r.system],
    ["n", (r) => (r.n === null ? "" : r.n.toLocaleString("en-US"))],
    ["limit", (r) => r.concurrency ?? ""],
    ["median ms", (r) => r.medianMs ?? "—"],
    ["µs/call", (r) => r.perCallUs ?? "—"],
    ["× floor", (r) => (r.ratio === null ? "—" : `${r.ratio}×`)],
    ["extra", extra],
    ["note", (r) => r.note ?? ""],
  ];
  for (const scenario of [...new Set(rows.map((r) => r.scenario))]) {
    const group = rows.filter((r) => r.scenario === scenario);
    const cells = group.map((r) => columns.map(([, get]) => String(get(r))));
    const widths = columns.map(([title], c) => Math.max(title.length, ...cells.map((row) => row[c].length)));
    console.log(`\n${scenario}`);
    console.log(columns.map(([title], c) => title.padEnd(widths[c])).join("  "));
    for (const row of cells) console.log(row.map((cell, c) => cell.padEnd(widths[c])).join("  ").trimEnd());
  }
}

function extra(row) {
  if (row.peakRssMb !== null && row.peakRssMb !== undefined) return `${row.peakRssMb} MB peak RSS`;
  if (row.efficiency !== undefined && row.efficiency !== null) return `efficiency ${row.efficiency}`;
  if (row.p99Ms !== undefined && row.p99Ms !== null) return `p99 ${row.p99Ms} ms`;
  return "";
}
