import { config } from "rxjs";
import { afterEach, describe, expect, it } from "vitest";
import { type CallReport, defineTool, type LogEntry, ok, runToolCalls } from "../../../src/index.js";
import { anyArgs, call } from "../../support/helpers.js";

const previous = config.onUnhandledError;
afterEach(() => {
  config.onUnhandledError = previous;
});

describe("ctx.log", () => {
  it("reaches onCallReport as a log report with the call's index, id, name and attempt", async () => {
    const tool = defineTool({
      name: "fetch",
      description: "",
      schema: anyArgs,
      handler: (_args, ctx) => {
        ctx.log({ level: "info", data: "fetched 3 of 7 pages" });
        ctx.log({ level: "warning", data: { slow: true }, logger: "http" });
        return ok("done");
      },
    });
    const reports: CallReport[] = [];
    const { messages } = await runToolCalls([call("a", "fetch")], [tool], { onCallReport: (r) => reports.push(r) });
    expect(messages.map((m) => m.content)).toEqual(["done"]);
    expect(reports).toEqual([
      { type: "log", index: 0, toolCallId: "a", toolName: "fetch", attempt: 1, level: "info", data: "fetched 3 of 7 pages" },
      { type: "log", index: 0, toolCallId: "a", toolName: "fetch", attempt: 1, level: "warning", data: { slow: true }, logger: "http" },
    ]);
  });

  it.each([
    ["an unknown level", { level: "verbose", data: "x" }],
    ["no entry at all", undefined],
    ["a logger that is not a string", { level: "info", data: "x", logger: 7 }],
  ])("drops %s and reports a TypeError naming ctx.log; the call goes on", async (_name, entry) => {
    const unhandled: unknown[] = [];
    config.onUnhandledError = (e) => unhandled.push(e);
    const tool = defineTool({
      name: "t",
      description: "",
      schema: anyArgs,
      handler: (_args, ctx) => {
        ctx.log(entry as unknown as LogEntry);
        return ok("still done");
      },
    });
    const reports: CallReport[] = [];
    const { messages } = await runToolCalls([call("a", "t")], [tool], { onCallReport: (r) => reports.push(r) });
    expect(messages.map((m) => m.content)).toEqual(["still done"]);
    expect(reports).toEqual([]);
    // Reported on a task of its own, as RxJS reports what no one can receive.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(unhandled).toHaveLength(1);
    expect(String(unhandled[0])).toMatch(/TypeError: Expected `ctx.log` of tool t \(call a\) to get \{ level: "debug" \| "info"/);
  });
});
