import { asyncScheduler, Observable, take } from "rxjs";
import { TestScheduler } from "rxjs/testing";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { defineTool, ok, runAgent, streamAgent, type AgentEvent, type HandlerResult, type ModelEvent, type ModelRequest } from "../../../src/index.js";
import type { HandlerContext } from "../../../src/tool/handler-context.js";
import { scriptedModel } from "../../../src/testing/index.js";
import { finish, shapeOf, text, toolCall, user } from "../../support/agent-helpers.js";
import { anyArgs, countingController, countingScheduler, flushMicrotasks } from "../../support/helpers.js";
import { must } from "../../support/must.js";

const question = [user("hi")];
const echo = defineTool({ name: "echo", description: "", schema: z.object({ text: z.string() }), handler: ({ text }) => ok(text) });

/** A tool whose handler waits until aborted, recording its ctx. */
function hangingTool() {
  const contexts: HandlerContext[] = [];
  const tool = defineTool({
    name: "hang",
    description: "",
    schema: anyArgs,
    handler: (_args, ctx) => {
      contexts.push(ctx);
      void ctx.signal; // make the signal exist before any abort
      return new Promise<HandlerResult>(() => {});
    },
  });
  return { tool, contexts };
}

/** A model that never finishes its turn, recording its request. */
function endlessModel(first: ModelEvent[] = []) {
  const requests: ModelRequest[] = [];
  const model = (request: ModelRequest) =>
    new Observable<ModelEvent>((subscriber) => {
      requests.push(request);
      for (const e of first) subscriber.next(e);
    });
  return { model, requests };
}

describe("cancellation with opts.signal", () => {
  it("aborts the running handlers and the model with the signal's reason, and ends with cancelled at the last completed turn", async () => {
    const { tool, contexts } = hangingTool();
    const controller = new AbortController();
    const requests: ModelRequest[] = [];
    const endless = endlessModel([text("working"), toolCall("c2", "hang")]); // still streaming when cancelled
    const model = (r: ModelRequest) => {
      requests.push(r);
      return r.turn === 0 ? [toolCall("c1", "echo", { text: "a" })] : endless.model(r);
    };
    const events: AgentEvent[] = [];
    let completed = false;
    streamAgent({ model, tools: [echo, tool], messages: question, signal: controller.signal }).subscribe({
      next: (e) => events.push(e),
      complete: () => (completed = true),
    });
    await flushMicrotasks();
    expect(contexts).toHaveLength(1);
    const reason = new Error("the user left");
    controller.abort(reason);
    expect(contexts[0]?.signal.aborted).toBe(true);
    expect(contexts[0]?.signal.reason).toBe(reason);
    expect(requests[1]?.signal.reason).toBe(reason);
    expect(completed).toBe(true);
    const last = events.at(-1);
    expect(last).toEqual({
      type: "agent_halted",
      haltedReason: "cancelled",
      metadata: { reason },
      messages: [
        ...question,
        { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "echo", arguments: { text: "a" } }] },
        { role: "tool", toolCallId: "c1", name: "echo", content: "a", isError: false },
      ],
    });
  });

  it("an already aborted signal: cancelled at once, with no model request", async () => {
    const model = vi.fn(() => [] as ModelEvent[]);
    const result = await runAgent({ model, tools: [echo], messages: question, signal: AbortSignal.abort("stop") });
    expect(result).toEqual({ haltedReason: "cancelled", metadata: { reason: "stop" }, messages: question });
    expect(model).not.toHaveBeenCalled();
  });

  it("leaves no listener on the caller's signal, whether the run completes, is cancelled or unsubscribed", async () => {
    const completes = countingController();
    await runAgent({
      model: scriptedModel([[toolCall("c1", "echo", { text: "a" })], [finish("stop")]]),
      tools: [echo],
      messages: question,
      signal: completes.controller.signal,
    });
    expect(completes.listeners).toBe(0);

    const cancels = countingController();
    const { model } = endlessModel();
    const done = runAgent({ model, tools: [echo], messages: question, signal: cancels.controller.signal });
    cancels.controller.abort();
    expect((await done).haltedReason).toBe("cancelled");
    expect(cancels.listeners).toBe(0);

    const leaves = countingController();
    const { tool } = hangingTool();
    const subscription = streamAgent({
      model: scriptedModel([[toolCall("c1", "hang")]]),
      tools: [tool],
      messages: question,
      signal: leaves.controller.signal,
    }).subscribe();
    await flushMicrotasks();
    subscription.unsubscribe();
    expect(leaves.listeners).toBe(0);
  });
});

describe("unsubscribing", () => {
  it("aborts the model's signal and every running handler, and emits nothing more", async () => {
    const { tool, contexts } = hangingTool();
    const { model, requests } = endlessModel([toolCall("c1", "hang"), toolCall("c2", "hang")]);
    const events: AgentEvent[] = [];
    const subscription = streamAgent({ model, tools: [tool], messages: question }).subscribe((e) => events.push(e));
    await flushMicrotasks();
    const seen = events.length;
    subscription.unsubscribe();
    expect(requests[0]?.signal.aborted).toBe(true);
    expect(contexts.map((c) => c.signal.aborted)).toEqual([true, true]);
    expect((must(contexts[0]).signal.reason as DOMException).name).toBe("AbortError");
    await flushMicrotasks();
    expect(events).toHaveLength(seen);
  });

  it("leaves no timer behind: the model's delays and the handlers' deadlines are all cancelled", () => {
    const scheduler = countingScheduler(asyncScheduler);
    const { tool } = hangingTool();
    const model = scriptedModel([[toolCall("c1", "hang"), { wait: 60_000 }, finish("tool_calls")]], { scheduler });
    const subscription = streamAgent({ model, tools: [tool], messages: question, scheduler, toolTimeout: 60_000 }).subscribe();
    return flushMicrotasks().then(() => {
      expect(scheduler.live).toBe(2); // the model's pause and the handler's deadline
      subscription.unsubscribe();
      expect(scheduler.live).toBe(0);
    });
  });

  it("leaves no abort listener on any signal: the run's own, the model's, the handlers'", async () => {
    let live = 0;
    const realAdd = EventTarget.prototype.addEventListener;
    const realRemove = EventTarget.prototype.removeEventListener;
    EventTarget.prototype.addEventListener = function (this: EventTarget, ...args: Parameters<EventTarget["addEventListener"]>) {
      if (args[0] === "abort") live++;
      return realAdd.apply(this, args);
    };
    EventTarget.prototype.removeEventListener = function (this: EventTarget, ...args: Parameters<EventTarget["removeEventListener"]>) {
      if (args[0] === "abort") live--;
      return realRemove.apply(this, args);
    };
    try {
      const { tool } = hangingTool();
      const model = scriptedModel([[toolCall("c1", "echo", { text: "a" })], [toolCall("c2", "hang"), { wait: 60_000 }, finish("tool_calls")]], { delay: 1 });
      const subscription = streamAgent({ model, tools: [echo, tool], messages: question, toolTimeout: 60_000 }).subscribe();
      await new Promise((r) => setTimeout(r, 30));
      expect(live).toBeGreaterThan(0); // the model's abort listener, and the runner's on the run's signal
      subscription.unsubscribe();
      expect(live).toBe(0);
      const done = await runAgent({
        model: scriptedModel([[toolCall("c1", "echo", { text: "a" })], [finish("stop")]], { delay: 1 }),
        tools: [echo],
        messages: question,
      });
      expect(done.haltedReason).toBe("completed");
      expect(live).toBe(0);
    } finally {
      EventTarget.prototype.addEventListener = realAdd;
      EventTarget.prototype.removeEventListener = realRemove;
    }
  });

  it("a consumer that lets go inside next stops the run there: take(1) makes no model request", () => {
    const model = vi.fn(() => [text("hi")]);
    const seen: string[] = [];
    streamAgent({ model, tools: [], messages: question })
      .pipe(take(1))
      .subscribe((e) => seen.push(e.type));
    expect(seen).toEqual(["turn_started"]);
    expect(model).not.toHaveBeenCalled();
  });
});

describe("time", () => {
  it("runs a slow scripted model in virtual time", () => {
    const scheduler = new TestScheduler((a, b) => expect(a).toEqual(b));
    scheduler.run(({ expectObservable }) => {
      const model = scriptedModel(
        [
          [text("a"), toolCall("c1", "echo", { text: "x" }), finish("tool_calls")],
          [text("b"), finish("stop")],
        ],
        { delay: 100 },
      );
      const types = new Observable<string>((s) =>
        streamAgent({ model, tools: [echo], messages: question }).subscribe({
          next: (e) => {
            if (e.type === "text_delta" || e.type === "agent_halted") s.next(shapeOf([e])[0] as string);
          },
          complete: () => s.complete(),
        }),
      );
      expectObservable(types).toBe("100ms a 299ms b 99ms (c|)", { a: "0:text_delta", b: "1:text_delta", c: "agent_halted(completed)" });
    });
  });
});

describe("a long run", () => {
  it("keeps a flat stack through thousands of synchronous turns", async () => {
    let n = 0;
    const model = () => [toolCall(`c${n++}`, "echo", { text: "x" })];
    const result = await runAgent({ model, tools: [echo], messages: question, maxTurns: 2_000 });
    expect(result.haltedReason).toBe("max_turns");
    expect(result.messages).toHaveLength(1 + 2 * 2_000);
  });
});
