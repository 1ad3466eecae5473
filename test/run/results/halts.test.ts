import { describe, expect, it } from "vitest";
import { askUser, defineTool, halt, ok, runToolCalls, type HandlerResult } from "../../../src/index.js";
import { anyArgs, call, deferred } from "../../support/helpers.js";

describe("RunResult.halts", () => {
  it("lists every halt in input order, whatever order they happened in; halt is the first", async () => {
    const late = deferred<HandlerResult>();
    const tools = [
      defineTool({ name: "ask", description: "", schema: anyArgs, handler: () => late.promise }),
      defineTool({ name: "fine", description: "", schema: anyArgs, handler: () => ok(1) }),
      defineTool({ name: "stop", description: "", schema: anyArgs, handler: () => halt("budget", { eur: 3 }) }),
      defineTool({ name: "fail", description: "", schema: anyArgs, handler: () => ({ type: "error", reason: "x" }) }),
    ];
    const done = runToolCalls([call("c0", "ask"), call("c1", "fine"), call("c2", "stop"), call("c3", "fail")], tools, { onToolError: "halt" });
    late.resolve(askUser("Sure?"));
    const result = await done;
    expect(result.halts).toEqual([
      { haltedReason: "ask_user", pendingQuestion: "Sure?", pendingToolCallId: "c0", askUserOpts: {} },
      { haltedReason: "budget", haltToolCallId: "c2", haltResult: { eur: 3 } },
      { haltedReason: "tool_error", haltToolCallId: "c3" },
    ]);
    expect(result.halt).toEqual(result.halts?.[0]);
  });

  it("is absent when no call halted", async () => {
    const fine = defineTool({ name: "fine", description: "", schema: anyArgs, handler: () => ok(1) });
    const result = await runToolCalls([call("c0", "fine")], [fine]);
    expect("halts" in result).toBe(false);
  });
});
