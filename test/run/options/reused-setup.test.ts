/**
 * A host that runs batch after batch with the same tool list and no options (an MCP host's one
 * call per `runToolCalls`) resolves the defaults and indexes the list once. What is reused must be
 * what a fresh run would build: each run still gets a context of its own, and a list changed
 * between batches (an element added or replaced, a tool renamed, a `control` set) is checked and
 * indexed again.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defineTool, ok, runToolCalls, type Tool } from "../../../src/index.js";
import { resolveOptions, runEnvOf, toolSource } from "../../../src/run/options/index.js";
import { assertExecutorsKnown } from "../../../src/run/options/tool-executors.js";
import { indexTools } from "../../../src/tool/tool-index.js";
import { anyArgs, call } from "../../support/helpers.js";

const echo = (name: string): Tool => defineTool({ name, description: "", schema: anyArgs, handler: () => ok(name) });

describe("a run given no options", () => {
  it("gets a context of its own: what a handler writes into it is not seen by the next run", async () => {
    const seen: unknown[] = [];
    const marking = defineTool({
      name: "mark",
      description: "",
      schema: anyArgs,
      handler: (_args, ctx) => {
        const context = ctx.context as { marked?: boolean };
        seen.push(context.marked);
        context.marked = true;
        return ok("marked");
      },
    });
    await runToolCalls([call("c1", "mark")], [marking]);
    await runToolCalls([call("c2", "mark")], [marking]);
    expect(seen).toEqual([undefined, undefined]);
  });

  it("resolves to what resolveOptions gives, whatever the batch's size and the order of sizes seen", () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.integer({ min: 0, max: 100 }), { nil: undefined }), { minLength: 1, maxLength: 8 }), (counts) => {
        for (const count of counts) {
          const { context, ...reused } = runEnvOf(undefined, count);
          const { context: fresh, ...resolved } = resolveOptions(undefined, count);
          expect(reused).toEqual(resolved);
          expect(context).toEqual(fresh);
          expect(context).not.toBe(runEnvOf(undefined, count).context);
        }
      }),
    );
  });
});

describe("a tool list run batch after batch", () => {
  it("is checked again when a tool is added to it: a second tool of one name is refused", async () => {
    const tools = [echo("a")];
    await runToolCalls([call("c1", "a")], tools);
    tools.push(echo("a"));
    await expect(runToolCalls([call("c2", "a")], tools)).rejects.toThrow(/^Two tools are named "a"/);
  });

  it("runs the tool that replaced another of the same name in the same slot", async () => {
    const tools = [echo("a")];
    await runToolCalls([call("c1", "a")], tools);
    tools[0] = defineTool({ name: "a", description: "", schema: anyArgs, handler: () => ok("the new a") });
    const { messages } = await runToolCalls([call("c2", "a")], tools);
    expect(messages.map((m) => [m.content, m.isError])).toEqual([["the new a", false]]);
  });

  it("finds a tool renamed in place under its new name only", async () => {
    const tool = { ...echo("a") } as { name: string } & Tool;
    const tools = [tool];
    await runToolCalls([call("c1", "a")], tools);
    tool.name = "renamed";
    const { messages } = await runToolCalls([call("c2", "renamed"), call("c3", "a")], tools, { onUnknownTool: "answer" });
    expect(messages.map((m) => m.isError)).toEqual([false, true]);
  });

  it("reads a control set on a tool since: an executor the run lacks is refused", async () => {
    const tool = { ...echo("a") } as { control?: Tool["control"] } & Tool;
    const tools = [tool];
    await runToolCalls([call("c1", "a")], tools);
    tool.control = { executor: "remote" };
    await expect(runToolCalls([call("c2", "a")], tools)).rejects.toThrow(/^Tool "a" runs on executor "remote"/);
  });
});

describe("a fresh array of the same tools each batch (`runToolCalls(calls, [tool])`)", () => {
  const env = resolveOptions(undefined, 1);

  /** What the list indexes to with nothing reused: its tools by name, or the refusal's message. */
  const fresh = (list: readonly Tool[]): string[] | string => {
    try {
      assertExecutorsKnown(indexTools(list).values(), env.executors);
      return list.map((tool) => tool.name);
    } catch (e) {
      return (e as Error).message;
    }
  };
  const reused = (list: readonly Tool[]): string[] | string => {
    try {
      const source = toolSource(list, env);
      const names = source.names();
      for (const name of names) expect(source.lookup(name)).toBe(list.find((tool) => tool.name === name));
      return [...names];
    } catch (e) {
      return (e as Error).message;
    }
  };

  it("indexes as a fresh index would, however the tools are renamed, regrouped and reordered between batches", () => {
    type Step = { kind: "run"; picks: number[] } | { kind: "rename"; tool: number; name: string } | { kind: "control"; tool: number; control: Tool["control"] };
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.record({ kind: fc.constant("run" as const), picks: fc.array(fc.nat(3), { minLength: 1, maxLength: 4 }) }),
      fc.record({ kind: fc.constant("rename" as const), tool: fc.nat(3), name: fc.constantFrom("a", "b", "c", "d") }),
      fc.record({
        kind: fc.constant("control" as const),
        tool: fc.nat(3),
        // A group's limit both ways (tools of one group must agree), and an executor the run lacks.
        control: fc.constantFrom<Tool["control"]>(
          undefined,
          { concurrency: { group: "g", limit: 1 } },
          { concurrency: { group: "g", limit: 2 } },
          { executor: "remote" },
        ),
      }),
    );
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 12 }), (steps) => {
        const pool = ["a", "b", "c", "d"].map((name) => ({ ...echo(name) }) as { name: string; control?: Tool["control"] } & Tool);
        for (const s of steps) {
          if (s.kind === "rename") (pool[s.tool] as { name: string }).name = s.name;
          else if (s.kind === "control") (pool[s.tool] as { control?: Tool["control"] }).control = s.control;
          else {
            const list = s.picks.map((i) => pool[i] as Tool);
            expect(reused(list)).toEqual(fresh(list));
          }
        }
      }),
    );
  });

  it("refuses a second tool of the first one's name added behind it in a new array", async () => {
    const a = echo("a");
    await runToolCalls([call("c1", "a")], [a]);
    await expect(runToolCalls([call("c2", "a")], [a, echo("a")])).rejects.toThrow(/^Two tools are named "a"/);
  });
});
