#!/usr/bin/env node
/**
 * Per-file mutation scores from a Stryker JSON report, and the surviving mutants by line.
 *
 *   node scripts/mutation-scores.mjs [reports/mutation/mutation.json] [--survivors]
 *
 * Score = detected (killed + timed out) / (detected + survived + no coverage), as Stryker counts it.
 */
import { readFileSync } from "node:fs";

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith("--")) ?? "reports/mutation/mutation.json";
const report = JSON.parse(readFileSync(file, "utf8"));
for (const [path, { mutants, source }] of Object.entries(report.files)) {
  const count = (...states) => mutants.filter((m) => states.includes(m.status)).length;
  const detected = count("Killed", "Timeout");
  const undetected = count("Survived", "NoCoverage");
  const score = (100 * detected) / (detected + undetected);
  console.log(`${path.padEnd(26)} ${score.toFixed(1).padStart(5)}%  ${detected} detected, ${count("Survived")} survived, ${count("NoCoverage")} not reached`);
  if (args.includes("--survivors")) {
    const lines = source.split("\n");
    for (const m of mutants.filter((x) => x.status === "Survived" || x.status === "NoCoverage")) {
      const at = m.location.start;
      console.log(
        `    ${m.status} ${path}:${at.line}:${at.column} ${m.mutatorName}: ${JSON.stringify(m.replacement ?? "")} in ${lines[at.line - 1]?.trim().slice(0, 100)}`,
      );
    }
  }
}
