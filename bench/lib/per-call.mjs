/**
 * What a runner costs per call, in CPU time: 10,000 calls at limit 16 whose handlers do nothing,
 * synchronously (`sync`) or through a promise that is already settled (`async`). Every system
 * runs as a user runs it by default: toolrx with its 30 s deadline on, the floor-timeout and
 * the limit with the same deadline, the rest with whatever they do by default.
 */
import { makeCalls, instrumented } from "./workload.mjs";
import { contractOf, limitOf, maxCalls } from "./settings.mjs";
import { pairedRatio, prepareAll, rounds } from "./rounds.mjs";
import { median, round } from "./stats.mjs";

const N = 10_000;
const CONCURRENCY = 16;
const HANDLER = { sync: "trivial", async: "resolved" };

/**
 * Rows for scenario `name` ("sync" or "async"). Peer frameworks, too slow for 10,000 calls in
 * some modes, run at their own size in rounds of their own with the floor and the limit beside
 * them, so that their ratios are paired too; their garbage stays out of the light pools' runs.
 */
export async function perCall(name, systems, mode) {
  const { handler, probe } = instrumented(HANDLER[name]);
  const runnable = name === "sync" ? systems : systems.filter((s) => !s.framework);
  const reference = (names) => systems.filter((s) => names.includes(s.name));
  const groups = [{ size: N, members: runnable.filter((s) => !s.framework), reports: runnable.filter((s) => !s.framework) }];
  for (const framework of runnable.filter((s) => s.framework)) {
    const size = Math.min(N, maxCalls(framework, mode));
    const group = groups.find((g) => g.framework && g.size === size);
    if (group !== undefined) {
      group.members.push(framework);
      group.reports.push(framework);
    } else groups.push({ size, framework: true, members: [...reference(["floor", "contract-batch", "limit-batch"]), framework], reports: [framework] });
  }
  const rows = [];
  for (const { size, framework, members, reports } of groups) {
    if (members.length === 0) continue;
    const prepared = await prepareAll(members, { handler, concurrency: CONCURRENCY });
    const runs = framework ? mode.frameworkRuns : mode.poolRuns;
    const repeats = framework ? 1 : mode.repeats[name];
    const cpu = await rounds(prepared, makeCalls(size), size, probe, { ...mode, runs, repeats });
    for (const system of reports) rows.push(row(name, system, size, repeats, cpu, mode));
  }
  return rows;
}

function row(scenario, system, n, repeats, cpu, mode) {
  const mine = cpu.get(system.name);
  const ms = median(mine) / repeats;
  const versus = (other) => (cpu.has(other) && other !== system.name ? rounded(pairedRatio(mine, cpu.get(other))) : null);
  const capped = n < N ? `at ${n.toLocaleString("en-US")} calls (${mode.name} mode); ` : "";
  return {
    scenario,
    system: system.name,
    n,
    concurrency: CONCURRENCY,
    cpuMs: round(ms, 3),
    cpuUsPerCall: round((ms * 1000) / n, 3),
    xFloor: versus("floor"),
    xContract: versus(contractOf(system)),
    xLimit: versus(limitOf(system)),
    note: `${capped}${system.note ?? ""}`,
  };
}

function rounded({ median: m, p25, p75 }) {
  return { median: round(m, 2), p25: round(p25, 2), p75: round(p75, 2) };
}
