import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ok, runToolCalls, type RunOptions, type Tool, type ToolCall } from "../../src/index.js";
import { oneQueue } from "./one-queue.js";
import { redisUnavailable } from "./redis.js";

/**
 * A job carries the arguments the attempt runs with, as the schema took them: a repair's, or a
 * `before` hook's rewrite (the hooks run on the producer), and the worker, validating them again,
 * runs its handler with what an in-process one gets; `ctx.toolCall` stays the model's call. The
 * model's arguments in the job had the repaired call answered with its issues, and the rewrite lost.
 */
const city = z.object({ city: z.string().transform((s) => s.toUpperCase()) });
let runs = 0;
const tools: Tool[] = [
  defineTool({ name: "weather", description: "", schema: city, handler: ({ city }, ctx) => ok({ city, asked: ctx.toolCall.arguments }) }),
  defineTool({
    name: "rewritten",
    description: "",
    schema: city,
    hooks: [{ before: (args) => (args.city === "OSLO" ? { arguments: { city: "rome" } } : undefined) }],
    handler: ({ city }) => ok({ city }),
  }),
  defineTool({
    name: "flaky",
    description: "",
    schema: city,
    control: { idempotent: true, retry: { attempts: 2, delay: 1, jitter: false, retryOn: () => true } },
    handler: ({ city }) => (++runs % 2 === 1 ? { type: "error", reason: "busy" } : ok({ city })),
  }),
] as unknown as Tool[];

const calls: ToolCall[] = [
  { id: "repaired", name: "weather", arguments: { town: "bergen" }, rawArguments: '{"town":"bergen"}' },
  { id: "hooked", name: "rewritten", arguments: { city: "oslo" } },
  { id: "retried", name: "flaky", arguments: { town: "bergen" } },
  { id: "plain", name: "weather", arguments: { city: "paris" }, rawArguments: '{"city":"paris"}' },
];
const options: RunOptions = { repairToolCall: ({ call }) => ({ city: call.arguments.town }) };

describe.skipIf(redisUnavailable !== undefined)("bullmqExecutor: the arguments an attempt runs with", () => {
  const queue = oneQueue("arguments", tools);

  it("are a repair's or a hook's, as in-process, and the schema's parse runs once on them", async () => {
    const local = await runToolCalls(calls, tools, options);
    expect(local.messages.map((m) => m.content)).toEqual([
      '{"city":"BERGEN","asked":{"town":"bergen"}}',
      '{"city":"ROME"}',
      '{"city":"BERGEN"}',
      '{"city":"PARIS","asked":{"city":"paris"}}',
    ]);
    const remote = await runToolCalls(calls, tools, { ...options, toolExecutor: queue.executor() });
    expect(remote).toEqual(local);
  });
});
