import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const script = fileURLToPath(new URL("./fixtures/bundle-and-die.ts", import.meta.url));
const root = fileURLToPath(new URL("../../", import.meta.url));
const dirs: string[] = [];

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Run the fixture in a process whose temporary directory is `dir`; what it printed, once it is killed. */
function bundleAndDie(dir: string): Promise<{ out: string; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", script], {
      cwd: root,
      env: { ...process.env, TMPDIR: dir },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (_code, signal) => resolve({ out: out.trim(), signal }));
  });
}

/** What toolrx left in `dir` (tsx keeps its own cache there too). */
const ours = (dir: string): string[] =>
  readdirSync(dir)
    .filter((name) => name.startsWith("toolrx-worker-") || name === "unrelated.txt")
    .sort();

describe("the worker script, run from source", () => {
  it("is one file per source version, shared by processes, left alone by one killed; other versions go after a day unused", async () => {
    const dir = mkdtempSync(join(tmpdir(), "worker-script-test-"));
    dirs.push(dir);
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    mkdirSync(join(dir, "toolrx-worker-Ab12Cd")); // an earlier version's per-process folder
    writeFileSync(join(dir, "toolrx-worker-Ab12Cd", "worker.mjs"), "");
    writeFileSync(join(dir, "toolrx-worker-0000000000000000.mjs"), "");
    writeFileSync(join(dir, "unrelated.txt"), "");
    for (const name of ["toolrx-worker-Ab12Cd", "toolrx-worker-0000000000000000.mjs", "unrelated.txt"]) utimesSync(join(dir, name), twoDaysAgo, twoDaysAgo);
    writeFileSync(join(dir, "toolrx-worker-1111111111111111.mjs"), ""); // another version, in use

    const first = await bundleAndDie(dir);
    const second = await bundleAndDie(dir);
    expect([first.signal, second.signal]).toEqual(["SIGKILL", "SIGKILL"]);
    expect(first.out).toMatch(/\/toolrx-worker-[0-9a-f]{16}\.mjs$/);
    expect(second.out).toBe(first.out);
    expect(ours(dir)).toEqual([first.out.replace(/^.*\//, ""), "toolrx-worker-1111111111111111.mjs", "unrelated.txt"].sort());
  });
});
