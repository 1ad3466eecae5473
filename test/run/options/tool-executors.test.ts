/**
 * One batch, several executors: a tool names its executor (`control.executor`), the run gives
 * them by name (`toolExecutors`), and the rest run on `toolExecutor`. Limits, events and reports
 * stay the runner's; a tool naming an executor the run lacks is refused before anything runs.
 */
import { firstValueFrom, toArray } from "rxjs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  defaultExecutor,
  defineTool,
  ok,
  runAgent,
  runToolCalls,
  streamToolCalls,
  toolResolver,
  type CallReport,
  type ToolExecutor,
} from "../../../src/index.js";
import { telemetry } from "../../../src/otel/index.js";
import { scriptedModel } from "../../../src/testing/index.js";
import { finish, toolCall, user } from "../../support/agent-helpers.js";
import { call } from "../../support/helpers.js";
import { otelHarness } from "../../support/otel-harness.js";

/** An executor that records the calls it ran, then runs them as the default one does. */
function recording(): ToolExecutor & { readonly ran: string[] } {
  const ran: string[] = [];
  return {
    ran,
    execute(tool, args, ctx) {
      ran.push(ctx.toolCall.id);
      return defaultExecutor.execute(tool, args, ctx);
    },
  };
}

const slowControl = { executor: "remote", idempotent: true } as const;
const render = defineTool({
  name: "render",
  description: "A slow render",
  schema: z.object({ n: z.number() }),
  control: slowControl,
  handler: async ({ n }, ctx) => {
    ctx.progress({ progress: 1, total: 1 });
    await new Promise((resolve) => setTimeout(resolve, 5));
    return ok(`rendered ${n}`);
  },
});
// A group: tools that share a control share its executor too.
const upscale = defineTool({ name: "upscale", description: "", schema: z.object({}), control: slowControl, handler: () => ok("upscaled") });
const echo = defineTool({ name: "echo", description: "", schema: z.object({ text: z.string() }), handler: ({ text }) => ok(text) });
const tools = [render, upscale, echo];
const calls = [call("c1", "render", { n: 1 }), call("c2", "echo", { text: "hi" }), call("c3", "upscale"), call("c4", "render", { n: 2 })];

describe("toolExecutors and control.executor", () => {
  describe("when a batch mixes a named executor and the default", () => {
    it("runs each call on its tool's executor, and answers as one executor would", async () => {
      const remote = recording();
      const local = recording();
      const reports: CallReport[] = [];
      const mixed = await runToolCalls(calls, tools, { toolExecutor: local, toolExecutors: { remote }, onCallReport: (r) => reports.push(r) });
      expect(remote.ran).toEqual(["c1", "c3", "c4"]);
      expect(local.ran).toEqual(["c2"]);

      // The same batch with every tool on the default executor: the same messages, events and reports.
      const single = await runToolCalls(calls, tools, { toolExecutors: { remote: defaultExecutor }, onCallReport: () => {} });
      expect(mixed).toEqual(single);
      expect(reports.map((r) => [r.type, r.toolCallId])).toEqual([
        ["progress", "c1"],
        ["progress", "c4"],
      ]);
      const shape = (events: readonly { type: string; toolCallId: string }[]) => events.map((e) => `${e.toolCallId}:${e.type}`).sort();
      const options = { toolExecutors: { remote: recording() } };
      expect(shape(await firstValueFrom(streamToolCalls(calls, tools, options).pipe(toArray())))).toEqual(
        shape(await firstValueFrom(streamToolCalls(calls, tools, { toolExecutors: { remote: defaultExecutor } }).pipe(toArray()))),
      );
    });

    it("keeps the run's limits across executors: maxConcurrency 1 runs one call at a time, whichever executor", async () => {
      let running = 0;
      let most = 0;
      const counting = (inner: ToolExecutor): ToolExecutor => ({
        async execute(tool, args, ctx) {
          most = Math.max(most, ++running);
          try {
            return await inner.execute(tool, args, ctx);
          } finally {
            running--;
          }
        },
      });
      const { messages } = await runToolCalls(calls, tools, {
        toolExecutor: counting(defaultExecutor),
        toolExecutors: { remote: counting(defaultExecutor) },
        maxConcurrency: 1,
      });
      expect(messages.map((m) => m.content)).toEqual(["rendered 1", "hi", "upscaled", "rendered 2"]);
      expect(most).toBe(1);
    });

    it("routes an agent's calls the same way", async () => {
      const remote = recording();
      const model = scriptedModel([[toolCall("a1", "render", { n: 3 }), toolCall("a2", "echo", { text: "yo" }), finish("tool_calls")], [finish("stop")]]);
      const result = await runAgent({ model, tools, messages: [user("go")], toolExecutors: { remote } });
      expect(result.haltedReason).toBe("completed");
      expect(remote.ran).toEqual(["a1"]);
      expect(result.messages.filter((m) => m.role === "tool").map((m) => m.content)).toEqual(["rendered 3", "yo"]);
    });

    it("gives a call on a named executor its span under telemetry, as on the default", async () => {
      const otel = otelHarness();
      const traced = telemetry({ tracerProvider: otel.tracerProvider, meterProvider: otel.meterProvider });
      const remote = recording();
      await traced.runToolCalls(calls, tools, { toolExecutors: { remote } });
      expect(remote.ran).toEqual(["c1", "c3", "c4"]);
      expect(
        otel
          .spans()
          .map((s) => s.name)
          .sort(),
      ).toEqual(["execute_tool echo", "execute_tool render", "execute_tool render", "execute_tool upscale"]);
    });
  });

  describe("when a tool names an executor the run does not have", () => {
    it("refuses the batch before anything runs: streamToolCalls throws, runToolCalls rejects, naming the tool and the executors", async () => {
      const local = recording();
      expect(() => streamToolCalls(calls, tools, { toolExecutor: local })).toThrow(
        new TypeError('Tool "render" runs on executor "remote" (`control.executor`), which is not in `toolExecutors`: the run has no `toolExecutors`'),
      );
      await expect(runToolCalls(calls, tools, { toolExecutor: local, toolExecutors: { gpu: recording() } })).rejects.toThrow('`toolExecutors` has "gpu"');
      expect(local.ran).toEqual([]);
    });

    it("refuses an agent at call time, and one over a resolver before its model is asked", async () => {
      const asked: number[] = [];
      const model = scriptedModel([
        () => {
          asked.push(1);
          return [finish("stop")];
        },
      ]);
      await expect(runAgent({ model, tools, messages: [user("go")] })).rejects.toThrow(TypeError);
      const overResolver = await runAgent({ model, tools: toolResolver(tools), messages: [user("go")] });
      expect(overResolver).toMatchObject({ haltedReason: "error", metadata: { error: { message: expect.stringContaining('executor "remote"') } } });
      expect(asked).toEqual([]);
    });

    it("refuses a batch over a resolver when it first reads the tools, before any call runs", async () => {
      const local = recording();
      await expect(runToolCalls([call("c2", "echo", { text: "hi" })], toolResolver(tools), { toolExecutor: local })).rejects.toThrow('executor "remote"');
      expect(local.ran).toEqual([]);
    });
  });

  describe("when the options are malformed", () => {
    it("names the option: toolExecutors not an object, an entry without execute, control.executor not a name", () => {
      expect(() => streamToolCalls([], tools, { toolExecutors: [] as never })).toThrow(
        "Expected `toolExecutors` to be an object of executors by name, got an array",
      );
      expect(() => streamToolCalls([], tools, { toolExecutors: { remote: {} as never } })).toThrow(
        "Expected `toolExecutors.remote` to have an `execute` method",
      );
      expect(() => defineTool({ name: "x", description: "", schema: z.object({}), control: { executor: "" } })).toThrow(
        'Expected `control.executor` of tool "x" to be the name of one of `toolExecutors`, got ""',
      );
      expect(() => defineTool({ name: "x", description: "", schema: z.object({}), control: { executor: 1 as never } })).toThrow("`control.executor`");
    });
  });
});
