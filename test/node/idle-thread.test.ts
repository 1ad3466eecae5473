import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runToolCalls } from "../../src/index.js";
import { must } from "../support/must.js";
import { call, fixtureTool, testPool, until } from "./pool-helpers.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A file no one has written yet, removed after the test. */
function freshFile(): string {
  const dir = mkdtempSync(join(tmpdir(), "toolrx-idle-"));
  dirs.push(dir);
  return join(dir, "fired");
}

describe("workerPool", () => {
  describe("when a thread is idle after a call", () => {
    // A thread that blocked while idle (piscina's Atomics.wait on a counter) would run none of
    // what its last call left behind until its next call; docs/isolation.md says it goes on.
    it("still runs a timer the call left behind, with no call after it", async () => {
      const pool = testPool({ size: 1, spares: 0 });
      const tool = fixtureTool(pool, "leaveTimer");
      const file = freshFile();
      const { messages } = await runToolCalls([call("a", "leaveTimer", { file, ms: 50 })], [tool], { toolExecutor: pool });
      expect(must(messages[0]).content).toBe("50");
      await until(() => existsSync(file), 5_000);
    });

    it("takes its next call at once after such a timer fired, and again after it waited", async () => {
      const pool = testPool({ size: 1, spares: 0 });
      const tool = fixtureTool(pool, "leaveTimer");
      const files = [freshFile(), freshFile(), freshFile()];
      for (const file of files) {
        const { messages } = await runToolCalls([call("a", "leaveTimer", { file, ms: 5 })], [tool], { toolExecutor: pool });
        expect(must(messages[0]).content).toBe("5");
        await until(() => existsSync(file), 5_000);
      }
    });

    it("still runs an unref'd timer the call left behind, with no call after it", async () => {
      // Not listed by process.getActiveResourcesInfo(): a thread that blocked whenever that
      // list shows only its port would still leave this timer waiting for a call.
      const pool = testPool({ size: 1, spares: 0 });
      const tool = fixtureTool(pool, "leaveTimer");
      const file = freshFile();
      await runToolCalls([call("a", "leaveTimer", { file, ms: 20, unref: true })], [tool], { toolExecutor: pool });
      await until(() => existsSync(file), 5_000);
    });
  });
});
