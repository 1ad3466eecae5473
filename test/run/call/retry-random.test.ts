/**
 * Retry jitter draws from the policy's `random` (default `Math.random`), so a test can make
 * backoffs reproducible, and a bad generator cannot break a call.
 */
import { config } from "rxjs";
import { afterEach, describe, expect, it } from "vitest";
import { defineTool, error, runToolCalls, ToolError, type AttemptFailedReport, type CallReport, type RetryPolicy } from "../../../src/index.js";
import { anyArgs, call } from "../../support/helpers.js";

const failing = defineTool({
  name: "t",
  description: "",
  schema: anyArgs,
  control: { idempotent: true },
  handler: async () => error(new ToolError("handler_raised")),
});

async function backoffs(retry: RetryPolicy): Promise<number[]> {
  const reports: CallReport[] = [];
  await runToolCalls([call("a", "t")], [failing], { retry, onCallReport: (r) => reports.push(r) });
  return reports.filter((r): r is AttemptFailedReport => r.type === "attempt_failed").map((r) => r.retryIn);
}

const previous = config.onUnhandledError;
afterEach(() => {
  config.onUnhandledError = previous;
});

describe("retry.random", () => {
  it("is where the jitter comes from: each backoff is its draw times the exponential ceiling", async () => {
    const draws = [0.5, 0.25, 0];
    expect(await backoffs({ attempts: 4, delay: 4, random: () => draws.shift() as number })).toEqual([2, 2, 0]);
  });

  it("is also read from a tool's own control.retry", async () => {
    const tool = defineTool({
      name: "t",
      description: "",
      schema: anyArgs,
      control: { idempotent: true, retry: { attempts: 2, delay: 8, random: () => 0.75 } },
      handler: async () => error(new ToolError("handler_raised")),
    });
    const reports: CallReport[] = [];
    await runToolCalls([call("a", "t")], [tool], { onCallReport: (r) => reports.push(r) });
    expect(reports.map((r) => (r as AttemptFailedReport).retryIn)).toEqual([6]);
  });

  it("keeps a draw outside [0, 1) inside it", async () => {
    const draws = [-3, Number.NaN, 7];
    const got = await backoffs({ attempts: 4, delay: 4, factor: 1, random: () => draws.shift() as number });
    expect(got.slice(0, 2)).toEqual([0, 0]);
    expect(got[2]).toBeLessThan(4);
    expect(got[2]).toBeGreaterThan(3.99);
  });

  it("that throws gives that backoff no jitter, and its error goes to config.onUnhandledError", async () => {
    const reported: unknown[] = [];
    config.onUnhandledError = (e) => reported.push(e);
    const bug = new Error("generator bug");
    expect(
      await backoffs({
        attempts: 2,
        delay: 4,
        random: () => {
          throw bug;
        },
      }),
    ).toEqual([4]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(reported).toEqual([bug]);
  });

  it("is refused when it is not a function", async () => {
    await expect(runToolCalls([call("a", "t")], [failing], { retry: { attempts: 2, random: 0.5 as never } })).rejects.toThrow(
      /^Expected `retry.random` to be a function \(\) => number in \[0, 1\), got 0.5/,
    );
  });
});
