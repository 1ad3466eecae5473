import { config, Observable } from "rxjs";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  defineTool,
  type HandlerResult,
  type JournalReattach,
  MemoryJournalStore,
  type ModelEvent,
  type ModelRequest,
  ok,
  runAgent,
  streamAgent,
} from "../../../src/index.js";

import { crashOnceRecorded, entriesOf, input, model, reattach, remoteTool } from "./reattach-fixtures.js";

afterEach(() => {
  config.onUnhandledError = null;
});

describe("journal.reattach, call by call", () => {
  /** Turn 0 calls `remote` twice (c1: n 1, c2: n 2); turn 1 ends. */
  const twoCalls = (request: ModelRequest) =>
    new Observable<ModelEvent>((subscriber) => {
      if (request.messages.some((m) => m.role === "tool")) subscriber.next({ type: "text_delta", text: "done" });
      else {
        subscriber.next({ type: "tool_call", call: { id: "c1", name: "remote", arguments: { n: 1 } } });
        subscriber.next({ type: "tool_call", call: { id: "c2", name: "remote", arguments: { n: 2 } } });
      }
      subscriber.complete();
    });

  it("asks callOf for exactly the calls cut off with a handle on record, and sends the call it answers", async () => {
    const store = new MemoryJournalStore();
    const started: number[] = [];
    const followed: unknown[] = [];
    const tool = defineTool({
      name: "remote",
      description: "",
      schema: z.object({ n: z.number() }),
      handler: ({ n }, ctx) => {
        const follow = ctx.toolCall.metadata?.follow;
        if (follow !== undefined) {
          followed.push(follow);
          return ok(`followed ${String(follow)}`);
        }
        started.push(n);
        if (n === 2) return ok("ran 2");
        ctx.progress({ progress: 1, data: { handle: "h-1" } });
        return new Promise<HandlerResult>(() => {});
      },
    });
    const asked: [string, string][] = [];
    const spying: JournalReattach = {
      handleOf: reattach.handleOf,
      callOf: (call, handle) => {
        asked.push([call.id, handle]);
        return { ...call, metadata: { follow: `${handle}!` } };
      },
    };
    const journal = { store, conversationKey: "conv", owner: "p1", reattach: spying };
    // c1 names its work and hangs, c2 waits behind it; the process stops before c2's start is on
    // record (the journal as it was written, less c2's `call` entry).
    await crashOnceRecorded({ model: twoCalls, tools: [tool], messages: input, journal, maxConcurrency: 1 }, store, 1);
    expect(started).toEqual([1]);
    const written = entriesOf(store);
    expect(written.filter((e) => e.type === "call").map((e) => e.type === "call" && e.call.id)).toEqual(["c1", "c2"]);
    const kept = new MemoryJournalStore();
    kept.acquire("conv", "p0", 30_000);
    kept.append(
      "conv",
      "p0",
      written.filter((e) => !(e.type === "call" && e.call.id === "c2")),
    );
    kept.release("conv", "p0", 60_000);

    const result = await runAgent({ model: twoCalls, tools: [tool], messages: input, journal: { ...journal, store: kept }, maxConcurrency: 1 });
    expect(result.haltedReason).toBe("completed");
    expect(asked).toEqual([["c1", "h-1"]]);
    expect(followed).toEqual(["h-1!"]);
    // The call that never started runs now, as in a run never cut off.
    expect(started).toEqual([1, 2]);
    const answers = result.messages.filter((m) => m.role === "tool");
    expect(answers.map((m) => [m.toolCallId, m.isError])).toEqual([
      ["c1", false],
      ["c2", false],
    ]);
    expect(answers[0]?.content).toContain("followed h-1!");
    expect(answers[1]?.content).toContain("ran 2");
  });

  it("records only a non-empty string handle: a report naming none, or an empty one, leaves the last handle standing", async () => {
    const store = new MemoryJournalStore();
    const remote = remoteTool(["h-1", undefined, "", 5] as never);
    const journal = { store, conversationKey: "conv", owner: "p1", reattach };
    await new Promise<void>((resolve) => {
      let reports = 0;
      const subscription = streamAgent({ model, tools: [remote.tool], messages: input, journal }).subscribe((e) => {
        if (e.type !== "call_report" || ++reports < 4) return;
        queueMicrotask(() => {
          subscription.unsubscribe();
          resolve();
        });
      });
    });
    expect(entriesOf(store).filter((e) => e.type === "handle")).toEqual([{ type: "handle", turn: 0, phase: "model", toolCallId: "c1", handle: "h-1" }]);
    const result = await runAgent({ model, tools: [remote.tool], messages: input, journal });
    expect(remote.followed).toEqual(["h-1"]);
    expect(result.messages.find((m) => m.role === "tool")?.content).toContain("followed h-1");
  });

  it("a restart without reattach leaves a recorded handle alone: the cut-off call's fate is unknown", async () => {
    const store = new MemoryJournalStore();
    const remote = remoteTool(["h-1"]);
    await crashOnceRecorded({ model, tools: [remote.tool], messages: input, journal: { store, conversationKey: "conv", owner: "p1", reattach } }, store, 1);
    const result = await runAgent({ model, tools: [remote.tool], messages: input, journal: { store, conversationKey: "conv", owner: "p1" } });
    expect(result.haltedReason).toBe("completed");
    expect(remote.started).toEqual([1]);
    expect(remote.followed).toEqual([]);
    expect(result.messages.find((m) => m.role === "tool")).toMatchObject({ toolCallId: "c1", isError: true });
    expect(result.messages.find((m) => m.role === "tool")?.content).toMatch(/handler_exit.*unknown/);
  });

  it("a quiet run whose host listens to no report still records each handle, and nothing goes to onUnhandledError", async () => {
    const errors: unknown[] = [];
    config.onUnhandledError = (e) => errors.push(e);
    const store = new MemoryJournalStore();
    const tool = defineTool({
      name: "remote",
      description: "",
      schema: z.object({ n: z.number() }),
      handler: (_args, ctx) => {
        ctx.progress({ progress: 1, data: { handle: "h-1" } });
        return ok("fine");
      },
    });
    const result = await runAgent({ model, tools: [tool], messages: input, journal: { store, conversationKey: "conv", owner: "p1", reattach } });
    await new Promise((r) => setTimeout(r, 10));
    expect(result.haltedReason).toBe("completed");
    expect(store.entries("conv").filter((e) => e.type === "handle")).toEqual([{ type: "handle", turn: 0, phase: "model", toolCallId: "c1", handle: "h-1" }]);
    expect(errors).toEqual([]);
  });
});
