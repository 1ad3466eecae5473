/**
 * Deadlines at fractional times always end. One place computed `start + timeout`, another
 * tested `now - start >= timeout`, and floating point disagrees (`(123.456 + 1000) - 123.456 <
 * 1000`): the runner re-armed a deadline at the time it had just found not passed, and spun
 * forever, synchronously. The property (random fractional clock, timeouts, idle deadlines,
 * backoffs and jitter) runs in a child process that is killed if it does not finish, so a
 * regression fails here instead of hanging the suite; inside, the virtual clock caps the number
 * of scheduled actions, so a spin through the scheduler fails as a counterexample.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const program = fileURLToPath(new URL("../../support/fractional-deadlines-property.ts", import.meta.url));

describe("deadlines at fractional times", () => {
  it("always end, whatever the clock, timeouts and jitter", async () => {
    const { code, output } = await new Promise<{ code: number | string | null; output: string }>((resolve) => {
      execFile(process.execPath, ["--import", "tsx", program, "400"], { timeout: 90_000, killSignal: "SIGKILL" }, (e, stdout, stderr) => {
        resolve({ code: e === null ? 0 : e.killed ? "killed: the runner did not terminate" : (e.code ?? null), output: stdout + stderr });
      });
    });
    expect({ code, output: output.split("\n")[0] }).toEqual({ code: 0, output: "ok: 400 runs terminated" });
  }, 120_000);
});
