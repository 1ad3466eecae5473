/**
 * Errors nobody can receive (a throwing `onCallReport` listener, a malformed cancel request, a
 * dropped progress payload) go to one documented place: RxJS's `config.onUnhandledError`, where
 * a host routes a throwing observer's errors too.
 */
import { config } from "rxjs";
import { afterEach, describe, expect, it } from "vitest";
import { defineTool, ok, runToolCalls } from "../../../src/index.js";
import { anyArgs, call } from "../../support/helpers.js";

const previous = config.onUnhandledError;
afterEach(() => {
  config.onUnhandledError = previous;
});

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("a throwing onCallReport listener", () => {
  it("breaks no call, and its error reaches config.onUnhandledError", async () => {
    const reported: unknown[] = [];
    config.onUnhandledError = (e) => reported.push(e);
    const bug = new Error("listener bug");
    const tool = defineTool({
      name: "t",
      description: "",
      schema: anyArgs,
      handler: (_args, ctx) => {
        ctx.progress({ progress: 1 });
        return ok(1);
      },
    });
    const { messages } = await runToolCalls([call("a", "t"), call("b", "t")], [tool], {
      onCallReport: () => {
        throw bug;
      },
    });
    expect(messages.map((m) => m.content)).toEqual(["1", "1"]);
    await tick();
    expect(reported).toEqual([bug, bug]);
  });
});

describe("a malformed ctx.progress payload", () => {
  it.each([[null], [undefined], [{ progress: "half" }], [3]])("(%s) is dropped and reported; the handler goes on and succeeds", async (payload) => {
    const reported: unknown[] = [];
    config.onUnhandledError = (e) => reported.push(e);
    let after = false;
    const tool = defineTool({
      name: "t",
      description: "",
      schema: anyArgs,
      handler: (_args, ctx) => {
        ctx.progress(payload as never);
        after = true;
        return ok("done");
      },
    });
    const { messages } = await runToolCalls([call("a", "t")], [tool], { onCallReport: () => {} });
    expect(after).toBe(true);
    expect(messages[0]?.content).toBe("done");
    await tick();
    expect(reported).toHaveLength(1);
    expect(reported[0]).toBeInstanceOf(TypeError);
    expect(String(reported[0])).toMatch(
      /^TypeError: Expected `ctx.progress` of tool t \(call a\) to get \{ progress: number, total\?, message\?, data\? \}, got .*; the report was dropped$/,
    );
  });
});
