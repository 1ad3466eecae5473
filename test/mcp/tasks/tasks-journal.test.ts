// An agent process with a durable journal, killed (SIGKILL) while its MCP task runs and started
// again: with `journal.reattach: mcpJournalReattach` the journal kept the task id, and the restart
// follows that task to its result instead of answering the call with its fate unknown or calling
// the tool again. The server (Streamable HTTP, in this process) counts the tool's runs.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JournalEntry } from "../../../src/index.js";
import { RedisJournalStore } from "../../../src/bullmq/index.js";
import { redisUnavailable, startRedis, type TestRedis } from "../../bullmq/redis.js";
import { LINES } from "../support/servers";
import { type GatedJobServer, spawnFixture, startGatedJobServer } from "./task-http-server.js";

const fixture = fileURLToPath(new URL("./task-journal-client.ts", import.meta.url));
let server: GatedJobServer;
const dir = mkdtempSync(join(tmpdir(), "toolrx-tasks-journal-"));

beforeAll(async () => {
  server = await startGatedJobServer();
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Run the agent fixture; resolves with its first line of output that `until` accepts. */
const agent = (args: string[], until: (line: string) => boolean) => spawnFixture(fixture, args, until);

/** Wait until `entries()` holds the call's task id, as a `handle` entry: then a kill cannot lose it. */
async function handleRecorded(entries: () => Promise<readonly JournalEntry[]> | readonly JournalEntry[], taskId: string): Promise<void> {
  const until = Date.now() + 30_000;
  for (;;) {
    if ((await entries()).some((e) => e.type === "handle" && e.handle === taskId)) return;
    if (Date.now() > until) throw new Error(`the journal never recorded task ${taskId}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function fileEntries(file: string): JournalEntry[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as JournalEntry);
}

/** Kill the agent mid-task, start it again on the same journal; what the second process answered. */
async function killAndRestart(line: string, where: string, mode: string, entries: () => Promise<readonly JournalEntry[]> | readonly JournalEntry[]) {
  server.reset();
  const { url } = server;
  const first = agent([line, url, where, mode], (l) => l.includes("taskId"));
  const { taskId } = JSON.parse(await first.line) as { taskId: string };
  if (mode === "reattach") await handleRecorded(entries, taskId);
  const killed = new Promise((resolve) => first.child.once("exit", resolve));
  first.child.kill("SIGKILL");
  await killed;
  const second = agent([line, url, where, mode], (l) => l.includes("content"));
  setTimeout(() => server.open(), 500);
  return JSON.parse(await second.line) as { content: string };
}

describe.each(LINES)("an agent with a journal (SDK %s) killed mid-task and started again", (line) => {
  it("re-attaches to the task the journal kept: one run on the server, its result answers the call", async () => {
    const file = join(dir, `${line}-reattach.jsonl`);
    const answer = await killAndRestart(line, `file:${file}`, "reattach", () => fileEntries(file));
    expect(answer).toEqual({ content: "finished after 1 run(s)" });
    expect(server.runs).toBe(1);
  }, 90_000);
});

describe("an agent with a journal but no `reattach`, killed mid-task", () => {
  it("answers the call with its fate unknown, as before, and does not call the tool again", async () => {
    const file = join(dir, "plain.jsonl");
    const answer = await killAndRestart("v1", `file:${file}`, "plain", () => fileEntries(file));
    expect(answer.content).toContain("handler_exit");
    expect(fileEntries(file).some((e) => e.type === "handle")).toBe(false);
    expect(server.runs).toBe(1);
  }, 90_000);
});

describe.skipIf(redisUnavailable !== undefined)("an agent with a Redis journal killed mid-task", () => {
  let redis: TestRedis;
  let reader: RedisJournalStore;
  beforeAll(async () => {
    redis = await startRedis();
    reader = new RedisJournalStore(redis.url);
  });
  afterAll(async () => {
    await reader?.close();
    await redis?.stop();
  });

  it("re-attaches to its task: one run on the server", async () => {
    // Taking the lease as the agent's own owner reads the entries and leaves the lease its.
    const answer = await killAndRestart("v2", redis.url, "reattach", () => reader.acquire("conv-1", "agent-1", 30_000));
    expect(answer).toEqual({ content: "finished after 1 run(s)" });
    expect(server.runs).toBe(1);
  }, 90_000);
});
