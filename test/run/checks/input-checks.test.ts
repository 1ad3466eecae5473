import { Observable, Subject } from "rxjs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { checkArguments, defineTool, ok, runToolCalls, streamToolCalls, type ToolCall, type ToolEvent } from "../../../src/index.js";
import { held } from "../../support/held-tool.js";
import { call, deferred, flushMicrotasks } from "../../support/helpers.js";
import { manualScheduler } from "../../support/manual-scheduler.js";

const echo = defineTool({
  name: "echo",
  description: "",
  schema: z.object({ city: z.string() }),
  handler: (args) => ok(args.city),
});

describe("checkArguments", () => {
  describe("when rawArguments is only whitespace", () => {
    it("checks the parsed arguments, as when the provider sent no text", () => {
      expect(checkArguments(echo, { id: "c1", name: "echo", arguments: { city: "Oslo" }, rawArguments: " \n\t" })).toEqual({
        ok: true,
        value: { city: "Oslo" },
      });
    });
  });

  describe("when rawArguments is JSON but not an object", () => {
    it("answers invalid_json saying an object was expected", () => {
      const checked = checkArguments(echo, { id: "c1", name: "echo", arguments: { city: "Oslo" }, rawArguments: "[1]" });
      expect(checked).toMatchObject({ ok: false });
      const { error } = checked as { error: { issues: unknown } };
      expect(error.issues).toEqual([{ code: "invalid_json", path: [], message: "the arguments were not valid JSON: expected an object" }]);
    });
  });

  describe("when rawArguments is not JSON", () => {
    it("says so with the parser's own words", () => {
      const checked = checkArguments(echo, { id: "c1", name: "echo", arguments: {}, rawArguments: "{city:" }) as unknown as {
        ok: boolean;
        error: { issues: { code: string; message: string }[] };
      };
      expect(checked.ok).toBe(false);
      expect(checked.error.issues[0]?.code).toBe("invalid_json");
      expect(checked.error.issues[0]?.message).toMatch(/^the arguments were not valid JSON \(.+\)$/);
    });
  });
});

describe("streamToolCalls", () => {
  describe("when calls is null", () => {
    it("throws the TypeError naming `calls`, not a property read's", () => {
      expect(() => streamToolCalls(null as never, [echo])).toThrow(new TypeError("Expected `calls` to be an array or an Observable of tool calls, got null"));
    });
  });

  describe("when the batch is empty", () => {
    it("completes with no event even if opts.signal already aborted, and never subscribes `cancel`", async () => {
      let cancelSubscribed = 0;
      const cancel = new Observable<string>(() => {
        cancelSubscribed++;
      });
      const controller = new AbortController();
      controller.abort(new Error("user left"));
      expect(await runToolCalls([], [echo], { signal: controller.signal, cancel })).toEqual({ messages: [] });
      expect(cancelSubscribed).toBe(0);
    });
  });

  describe("when opts.signal is already aborted and the input is an Observable", () => {
    it("never subscribes the input, and errors with the signal's reason", () => {
      let subscribed = 0;
      const input = new Observable<ToolCall>(() => {
        subscribed++;
      });
      const controller = new AbortController();
      controller.abort(new Error("user left"));
      let failure: unknown;
      streamToolCalls(input, [echo], { signal: controller.signal }).subscribe({ error: (e) => (failure = e) });
      expect(subscribed).toBe(0);
      expect((failure as Error).message).toBe("user left");
    });
  });
});

/**
 * An async refinement that rejects. zod first tries a synchronous parse, which calls it and drops
 * the promise; only the promise of the second, asynchronous parse rejects, so none goes unhandled.
 */
function rejectingWhenAwaited(): () => Promise<boolean> {
  let calls = 0;
  return () => (++calls === 1 ? new Promise<boolean>(() => {}) : Promise.reject(new Error("refinement broke")));
}

describe("running calls", () => {
  describe("when a call was cancelled by unsubscribing and its handler then rejects", () => {
    it("reaches neither the policy nor the encoder", async () => {
      const { tool, pending } = held();
      let policyCalls = 0;
      let encoded = 0;
      const subscription = streamToolCalls([call("a", "slow")], [tool], {
        onToolError: () => {
          policyCalls++;
          return { continue: "answered" };
        },
        toolResultEncoder: {
          encode: () => {
            encoded++;
            return "";
          },
          encodeError: () => {
            encoded++;
            return "";
          },
        },
      }).subscribe();
      await flushMicrotasks();
      subscription.unsubscribe();
      pending.get("a")?.fail(new Error("aborted"));
      await flushMicrotasks();
      expect(policyCalls).toBe(0);
      expect(encoded).toBe(0);
    });
  });

  describe("when the stream is unsubscribed during an async argument validation", () => {
    it("never runs the handler once the validation settles", async () => {
      const gate = deferred<void>();
      let ran = 0;
      const tool = defineTool({
        name: "checked",
        description: "",
        schema: z.object({ city: z.string() }).refine(async () => {
          await gate.promise;
          return true;
        }),
        handler: () => {
          ran++;
          return ok("done");
        },
      });
      const events: ToolEvent[] = [];
      const subscription = streamToolCalls([call("a", "checked", { city: "Oslo" })], [tool]).subscribe((e) => events.push(e));
      await flushMicrotasks();
      subscription.unsubscribe();
      gate.resolve();
      await flushMicrotasks(30);
      expect(ran).toBe(0);
      expect(events.map((e) => e.type)).toEqual(["tool_execution_started"]);
    });
  });

  describe("when an argument validation throws or rejects", () => {
    const throwing = (name: string, check: () => boolean | Promise<boolean>) =>
      defineTool({
        name,
        description: "",
        schema: z.object({}).loose().refine(check),
        handler: () => ok("ran"),
      });

    it.each([
      [
        "throws",
        () => {
          throw new Error("refinement broke");
        },
      ],
      ["rejects", rejectingWhenAwaited()],
    ] as const)("answers handler_exit when it %s, and the handler never runs", async (_how, check) => {
      const { messages } = await runToolCalls([call("a", "t")], [throwing("t", check)]);
      expect(messages).toHaveLength(1);
      expect(messages[0]?.isError).toBe(true);
      expect(messages[0]?.content).toContain("handler_exit");
      expect(messages[0]?.content).not.toContain("ran");
    });
  });

  describe("when a call times out", () => {
    it("says the toolTimeout in the error's metadata", async () => {
      const scheduler = manualScheduler();
      const { tool } = held();
      const errors: unknown[] = [];
      const done = runToolCalls([call("a", "slow")], [tool], {
        scheduler,
        toolTimeout: 250,
        onToolError: (_call, e) => {
          errors.push(e);
          return { continue: "answered" };
        },
      });
      await flushMicrotasks();
      await scheduler.advance(250);
      await done;
      expect(errors).toHaveLength(1);
      expect((errors[0] as { metadata: unknown }).metadata).toEqual({ toolTimeout: 250, deadline: "toolTimeout", settled: false });
    });
  });

  describe("when an async call finishes while others still run", () => {
    it("still aborts every other running handler on unsubscribe", async () => {
      const { tool, pending } = held();
      const subscription = streamToolCalls([call("a", "slow"), call("b", "slow"), call("c", "slow")], [tool]).subscribe();
      await flushMicrotasks();
      pending.get("a")?.settle(ok("a"));
      await flushMicrotasks();
      subscription.unsubscribe();
      expect(pending.get("b")?.ctx.signal.aborted).toBe(true);
      expect(pending.get("c")?.ctx.signal.aborted).toBe(true);
    });

    it("still cancels each by id", async () => {
      const { tool, pending } = held();
      const cancel = new Subject<string>();
      const done = runToolCalls([call("a", "slow"), call("b", "slow"), call("c", "slow")], [tool], { cancel });
      await flushMicrotasks();
      pending.get("a")?.settle(ok("a"));
      await flushMicrotasks();
      cancel.next("c");
      cancel.next("b");
      const { messages } = await done;
      expect(messages.map((m) => m.isError)).toEqual([false, true, true]);
      expect(pending.get("b")?.ctx.signal.aborted).toBe(true);
      expect(pending.get("c")?.ctx.signal.aborted).toBe(true);
    });
  });
});
