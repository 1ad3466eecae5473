import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ok, type CallHook, type HandlerContext, type Tool, type ToolResolver } from "../../src/index.js";
import type { RemoteHandlerContext } from "../../src/bullmq/index.js";
import { callJobRunner, type JobEnv } from "../../src/bullmq/run-job.js";
import { decodeJobResult } from "../../src/bullmq/result-codec.js";
import { readCallJob, type RemoteCall } from "../../src/bullmq/call-job.js";
import { jobIdOf } from "../../src/bullmq/job-id.js";

/** A tool that fails its first two runs, retried three times by its own control, with a hook that counts its runs. */
function flaky(runs: number[], hooked: string[]): Tool {
  const hook: CallHook = {
    before: () => void hooked.push("before"),
    after: (result) => {
      hooked.push("after");
      return result;
    },
  };
  return defineTool({
    name: "flaky",
    description: "",
    schema: z.object({}),
    control: { idempotent: true, retry: { attempts: 3, delay: 1, jitter: false } },
    hooks: [hook],
    handler: (_args, ctx: HandlerContext) => {
      runs.push((ctx as RemoteHandlerContext).attempt);
      if (runs.length < 3) throw new Error(`run ${runs.length}`);
      return ok(ctx.toolCall.id);
    },
  });
}

const job = (attempt: number): RemoteCall => readCallJob("toolrx.call", jobIdOf("k", "c", attempt), { v: 2, name: "flaky", args: {} });
const env = (tools: readonly Tool[] | ToolResolver): JobEnv => ({ tools, executor: undefined, validateArguments: true, context: {}, settleGrace: 100 });

describe("callJobRunner (what a worker runs a job with)", () => {
  it("runs one attempt, numbered by the producer, without the tool's own retries or hooks (the producer owns both)", async () => {
    const runs: number[] = [];
    const hooked: string[] = [];
    const tool = flaky(runs, hooked);
    const answer = await callJobRunner(env([tool]))(job(2), new AbortController().signal, () => {});
    expect(runs).toEqual([2]);
    expect(hooked).toEqual([]);
    const result = decodeJobResult((answer as { result: unknown }).result);
    expect(result).toMatchObject({ type: "error" });
  });

  it("sends a halt with a reserved reason and content parts back as the handler returned them: the producer's runner judges them after its retry plan", async () => {
    const answering = (result: unknown): Tool =>
      defineTool({
        name: "flaky",
        description: "",
        schema: z.object({}),
        control: { idempotent: true, retry: { attempts: 3 } },
        handler: () => result as never,
      });
    const reserved = { type: "halt", reason: "completed", result: { done: 1 } };
    const parts = { type: "ok", value: "v", parts: [{ type: "image" }] };
    for (const result of [reserved, parts]) {
      const answer = await callJobRunner(env([answering(result)]))(job(1), new AbortController().signal, () => {});
      expect(decodeJobResult((answer as { result: unknown }).result)).toEqual(result);
    }
  });

  it("leaves the tool's own deadlines to the producer: no second `timeout` answered on the worker", async () => {
    let aborted = false;
    const slow = defineTool({
      name: "flaky",
      description: "",
      schema: z.object({}),
      control: { timeout: 20, idleTimeout: 20 },
      handler: async (_args, ctx) => {
        await new Promise((resolve) => setTimeout(resolve, 150));
        aborted = ctx.signal.aborted;
        return ok("done");
      },
    });
    const answer = await callJobRunner(env([slow]))(job(1), new AbortController().signal, () => {});
    expect(decodeJobResult((answer as { result: unknown }).result)).toEqual(ok("done"));
    expect(aborted).toBe(false);
  });

  it("runs a resolver's call once as well", async () => {
    const runs: number[] = [];
    const listed = flaky([], []);
    const resolver: ToolResolver = {
      availableTools: () => [listed],
      resolve: async () => {
        runs.push(1);
        throw new Error("down");
      },
    };
    const answer = await callJobRunner(env(resolver))(job(1), new AbortController().signal, () => {});
    expect(runs).toEqual([1]);
    expect(decodeJobResult((answer as { result: unknown }).result)).toMatchObject({ type: "error" });
  });
});
