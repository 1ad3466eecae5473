import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Subject } from "rxjs";
import { describe, expect, it } from "vitest";
import { defineTool, ok, streamToolCalls, type HandlerResult, type ToolCall } from "../../../src/index.js";
import { held } from "../../support/held-tool.js";
import { anyArgs, deferred, flushMicrotasks } from "../../support/helpers.js";
import { manualScheduler } from "../../support/manual-scheduler.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** Collect garbage in a task of its own (a WeakRef keeps its target for the rest of its job), then count live targets. */
async function aliveAfterGc<T extends object>(refs: readonly WeakRef<T>[]): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 0));
  gc();
  return refs.filter((r) => r.deref() !== undefined).length;
}

/** Push `n` calls made here, so no frame of the test's own keeps one; returns a WeakRef to each. */
function pushAll(calls: Subject<ToolCall>, n: number, name = "t"): WeakRef<ToolCall>[] {
  const refs: WeakRef<ToolCall>[] = [];
  for (let i = 0; i < n; i++) {
    const c: ToolCall = { id: `c${i}`, name, arguments: { i } };
    refs.push(new WeakRef(c));
    calls.next(c);
  }
  return refs;
}

describe("streamToolCalls, the pool's memory", () => {
  describe("when async calls finish while another still runs", () => {
    it("lets go of every finished call, the first one started included", async () => {
      const gate = deferred<void>();
      const tool = defineTool({
        name: "t",
        description: "",
        schema: anyArgs,
        handler: async ({ hold }) => {
          if (hold === true) await gate.promise;
          return ok(1);
        },
      });
      const calls = new Subject<ToolCall>();
      let answered = 0;
      const done = new Promise<void>((resolve, reject) => {
        streamToolCalls(calls, [tool], { maxConcurrency: 4 }).subscribe({
          next: (e) => {
            if (e.type === "tool_result_encoded") answered++;
          },
          error: reject,
          complete: resolve,
        });
      });
      // The finished calls are started first, so one of them held the running set's first place.
      const finished = pushAll(calls, 50);
      calls.next({ id: "held", name: "t", arguments: { hold: true } });
      for (let i = 0; i < 20 && answered < 50; i++) await new Promise((resolve) => setTimeout(resolve, 0));
      expect(answered).toBe(50);
      // The held call still runs, so the pool is alive; the 50 finished calls must not be in it.
      expect(await aliveAfterGc(finished)).toBe(0);
      gate.resolve();
      calls.complete();
      await done;
      expect(answered).toBe(51);
    });
  });
});

describe("streamToolCalls, the pool's memory after unsubscribe", () => {
  /**
   * A handler that ignores its abort keeps its `ctx`, and through it the call's runner and its
   * pool, alive: the pool must not hold the calls that never started.
   */
  it("lets go of the queued calls, though an aborted handler still runs", async () => {
    const { tool, pending } = held("slow");
    const calls = new Subject<ToolCall>();
    const subscription = streamToolCalls(calls, [tool], { maxConcurrency: 1 }).subscribe();
    calls.next({ id: "first", name: "slow", arguments: {} });
    const waiting = pushAll(calls, 20, "slow");
    await flushMicrotasks();
    expect(pending.size).toBe(1);
    subscription.unsubscribe();
    expect(pending.get("first")?.ctx.signal.aborted).toBe(true);
    expect(await aliveAfterGc(waiting)).toBe(0);
    // The test holds the running handler's ctx until here.
    expect(pending.size).toBe(1);
  });

  it("lets go of the calls waiting for their tool's own limit, though an aborted handler still runs", async () => {
    const { tool, pending } = held("slow");
    // The limited tool's running handler keeps nothing, so only the pool could hold its waiting calls.
    const limited = defineTool({ name: "limited", description: "", schema: anyArgs, control: { concurrency: 1 }, handler: () => new Promise<never>(() => {}) });
    const calls = new Subject<ToolCall>();
    const subscription = streamToolCalls(calls, [tool, limited], { maxConcurrency: 8 }).subscribe();
    calls.next({ id: "first", name: "slow", arguments: {} });
    calls.next({ id: "running", name: "limited", arguments: {} });
    const waiting = pushAll(calls, 20, "limited");
    await flushMicrotasks();
    subscription.unsubscribe();
    expect(pending.get("first")?.ctx.signal.aborted).toBe(true);
    expect(await aliveAfterGc(waiting)).toBe(0);
    expect(pending.size).toBe(1);
  });
});

describe("streamToolCalls, the pool's memory of answered calls while others run", () => {
  /** Keep one call "held" running, started after `n` calls of `tool` made in here (so theirs are the earliest deadlines). */
  function alongsideHeld(tool: ReturnType<typeof defineTool>, n: number, options: Parameters<typeof streamToolCalls>[2] = {}) {
    const { tool: slow, pending } = held("slow");
    const calls = new Subject<ToolCall>();
    const tails: string[] = [];
    streamToolCalls(calls, [slow, tool], { maxConcurrency: n + 1, ...options }).subscribe((e) => e.type === "tool_result_encoded" && tails.push(e.toolCallId));
    const refs = pushAll(calls, n, tool.name);
    calls.next({ id: "held", name: "slow", arguments: {} });
    return { refs, tails, pending };
  }

  it.each([
    ["with the default toolTimeout", {}],
    ["with toolTimeout: Infinity", { toolTimeout: Infinity }],
  ] as const)("lets go of a retried call once it is answered, %s", async (_how, options) => {
    let attempts = 0;
    const flaky = defineTool({
      name: "flaky",
      description: "",
      schema: anyArgs,
      control: { idempotent: true, retry: { attempts: 2, delay: 0, jitter: false } },
      handler: async () => {
        await Promise.resolve();
        if (++attempts % 2 === 1) throw new Error("flaky");
        return ok("second time");
      },
    });
    const { refs, tails } = alongsideHeld(flaky, 1, options);
    for (let i = 0; i < 10 && tails.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(tails).toEqual(["c0"]);
    expect(await aliveAfterGc(refs)).toBe(0);
  });

  it("lets go of a running call cancelled by id", async () => {
    const cancel = new Subject<string>();
    // Its handler keeps nothing of the call, so only the runner could hold it.
    const other = defineTool({ name: "other", description: "", schema: anyArgs, handler: () => new Promise<never>(() => {}) });
    const { refs, tails } = alongsideHeld(other, 1, { cancel });
    await flushMicrotasks();
    cancel.next("c0");
    expect(tails).toEqual(["c0"]);
    expect(await aliveAfterGc(refs)).toBe(0);
  });
});

describe("streamToolCalls, the pool's memory of abandoned attempts", () => {
  it.each([
    ["once it settles late", true],
    ["once settleGrace has passed", false],
  ] as const)("lets go of a timed-out call's attempt %s, while the stream goes on", async (_when, settles) => {
    const scheduler = manualScheduler();
    const late = deferred<HandlerResult>();
    const tool = defineTool({ name: "t", description: "", schema: anyArgs, handler: () => (settles ? late.promise : new Promise<never>(() => {})) });
    // The input stays open, so the pool is alive while the call's memory is checked.
    const calls = new Subject<ToolCall>();
    const reports: string[] = [];
    streamToolCalls(calls, [tool], { scheduler, toolTimeout: 50, settleGrace: 100, onCallReport: (r) => reports.push(r.type) }).subscribe();
    const refs = pushAll(calls, 1);
    await scheduler.advance(50);
    if (settles) late.resolve(ok("late"));
    await scheduler.advance(settles ? 10 : 100);
    expect(reports).toEqual(["late_settlement"]);
    expect(await aliveAfterGc(refs)).toBe(0);
    calls.complete();
  });
});
