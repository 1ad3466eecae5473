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
import { resolveOptions, runEnvOf } from "../../../src/run/options/index.js";
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
