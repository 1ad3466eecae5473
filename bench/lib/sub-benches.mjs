/**
 * The benches that run apart from the per-call tables (the loop, MCP, isolation, BullMQ,
 * memory), each in a process of its own: `npm run bench` starts them one after another, shows
 * their output as they go, and gathers the targets each one reports through
 * bench/lib/report-targets.mjs.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = join(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Each scenario's script, and the targets it reports (named, so that a script that fails or
 * reports nothing still shows its targets, as not measured, with the reason).
 */
export const SUB_BENCHES = {
  loop: { script: "agent.mjs", targets: ["loop-overhead"] },
  journal: { script: "journal.mjs", targets: ["journal-overhead"] },
  "loop-memory": { script: "agent-memory.mjs", node: ["--expose-gc"], targets: ["loop-memory"] },
  mcp: { script: "mcp.mjs", targets: ["mcp-1", "mcp-16"] },
  isolated: { script: "isolated.mjs", targets: ["isolated-1", "isolated-64", "isolated-piscina-1", "isolated-piscina-64"] },
  "code-mode": { script: "code-mode.mjs", targets: ["code-mode-overhead"] },
  bullmq: { script: "bullmq.mjs", targets: ["bullmq-16", "bullmq-64", "bullmq-worker-cpu"] },
  memory: { script: "backlog.mjs", node: ["--expose-gc"], targets: ["heap-flat"] },
  "tool-search": {
    script: "tool-search.mjs",
    targets: ["tool-search-paraphrase-hit5", "tool-search-paraphrase-hybrid-hit5", "tool-search-request-size", "tool-search-turn-cpu"],
  },
  "ui-streams": { script: "ui-streams.mjs", targets: ["ui-stream-toUIMessageChunks", "ui-stream-toAgUiEvents"] },
};

/**
 * Run one sub-bench; resolves to its targets (or its named targets, not measured, and why) and
 * whether it failed: a bench that crashes must fail `npm run bench`, or CI would not notice.
 */
export async function runSubBench(name, mode) {
  const bench = SUB_BENCHES[name];
  const dir = mkdtempSync(join(tmpdir(), "toolrx-bench-"));
  const file = join(dir, "targets.jsonl");
  try {
    const args = [...(bench.node ?? []), join(here, bench.script), ...(mode.name === "quick" ? ["--quick"] : [])];
    const { code, tail } = await run(args, { ...process.env, TOOLRX_BENCH_TARGETS: file });
    let reported = [];
    try {
      reported = readFileSync(file, "utf8")
        .trim()
        .split("\n")
        .filter(Boolean)
        .flatMap((line) => JSON.parse(line));
    } catch {
      // Nothing reported: every named target below says why.
    }
    const why = code === 0 ? "the bench reported no figure for it" : `the bench failed (exit ${code}): ${tail || "no output"}`;
    const missing = bench.targets.filter((id) => !reported.some((t) => t.id === id));
    return { failed: code !== 0, targets: [...reported, ...missing.map((id) => ({ id, target: id, met: null, figure: `not measured: ${why}` }))] };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs node with `args`, its output shown indented on stderr; resolves with the exit code and
 * the line that says why it failed (the last one naming an error, else its last line).
 */
function run(args, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let last = "";
    let error = "";
    const show = (chunk) => {
      const text = chunk.toString();
      process.stderr.write(text.replace(/^(?=.)/gm, "    "));
      for (const line of text.split("\n")) {
        if (line.trim() === "") continue;
        last = line;
        if (/\b\w*Error\b|^error\b|^bench:/i.test(line.trim())) error = line;
      }
    };
    child.stdout.on("data", show);
    child.stderr.on("data", show);
    child.on("close", (code) => resolve({ code: code ?? 1, tail: (error || last).trim() }));
  });
}
