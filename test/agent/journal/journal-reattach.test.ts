import { config } from "rxjs";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, type JournalReattach, MemoryJournalStore, ok, runAgent, streamAgent } from "../../../src/index.js";

import { crashOnceRecorded, entriesOf, input, model, reattach, remoteTool } from "./reattach-fixtures.js";

afterEach(() => {
  config.onUnhandledError = null;
});

describe("journal.reattach", () => {
  it("a restart sends the call that follows the latest handle the cut-off call named: the work is not started again", async () => {
    const store = new MemoryJournalStore();
    const remote = remoteTool(["h-1", "h-2", "h-2"]);
    const journal = { store, conversationKey: "conv", owner: "p1", reattach };
    await crashOnceRecorded({ model, tools: [remote.tool], messages: input, journal }, store, 2);
    // One entry per handle it changed to, none for the same handle again.
    expect(entriesOf(store).filter((e) => e.type === "handle")).toEqual([
      { type: "handle", turn: 0, phase: "model", toolCallId: "c1", handle: "h-1" },
      { type: "handle", turn: 0, phase: "model", toolCallId: "c1", handle: "h-2" },
    ]);

    const result = await runAgent({ model, tools: [remote.tool], messages: input, journal });
    expect(result.haltedReason).toBe("completed");
    expect(remote.started).toEqual([1]);
    expect(remote.followed).toEqual(["h-2"]);
    const answer = result.messages.find((m) => m.role === "tool");
    expect(answer).toMatchObject({ toolCallId: "c1", isError: false });
    expect(answer?.content).toContain("followed h-2");
  });

  it("a quiet run (runAgent) records the handles and its host still hears every report", async () => {
    const store = new MemoryJournalStore();
    const remote = remoteTool(["h-1"]);
    const heard: unknown[] = [];
    const journal = { store, conversationKey: "conv", owner: "p1", reattach };
    const controller = new AbortController();
    const run = runAgent({
      model,
      tools: [remote.tool],
      messages: input,
      journal,
      signal: controller.signal,
      onCallReport: (report) => {
        if (report.type === "progress") heard.push(report.data);
        queueMicrotask(() => controller.abort());
      },
    });
    await run.catch(() => undefined);
    expect(heard).toEqual([{ handle: "h-1" }]);
    expect(entriesOf(store).filter((e) => e.type === "handle")).toEqual([{ type: "handle", turn: 0, phase: "model", toolCallId: "c1", handle: "h-1" }]);
  });

  it("a cut-off call that named no handle keeps its fate unknown, and the handle entry is not written without reattach", async () => {
    const quiet = remoteTool([]);
    const store = new MemoryJournalStore();
    const journal = { store, conversationKey: "conv", owner: "p1", reattach };
    await new Promise<void>((resolve) => {
      const subscription = streamAgent({ model, tools: [quiet.tool], messages: input, journal }).subscribe((e) => {
        if (e.type === "tool_event" && e.event.type === "tool_execution_started") {
          queueMicrotask(() => {
            subscription.unsubscribe();
            resolve();
          });
        }
      });
    });
    const result = await runAgent({ model, tools: [quiet.tool], messages: input, journal });
    expect(quiet.followed).toEqual([]);
    expect(result.messages.find((m) => m.role === "tool")?.content).toMatch(/handler_exit.*unknown/);

    const plainStore = new MemoryJournalStore();
    const named = remoteTool(["h-1"]);
    const plain = { store: plainStore, conversationKey: "conv", owner: "p1" };
    await new Promise<void>((resolve) => {
      const subscription = streamAgent({ model, tools: [named.tool], messages: input, journal: plain }).subscribe((e) => {
        if (e.type === "call_report")
          queueMicrotask(() => {
            subscription.unsubscribe();
            resolve();
          });
      });
    });
    expect(entriesOf(plainStore).some((e) => e.type === "handle")).toBe(false);
    const again = await runAgent({ model, tools: [named.tool], messages: input, journal: plain });
    expect(named.followed).toEqual([]);
    expect(again.messages.find((m) => m.role === "tool")?.content).toMatch(/handler_exit.*unknown/);
  });

  it("a handleOf that throws breaks neither the call nor the host's listener: the error goes to onUnhandledError", async () => {
    const errors: unknown[] = [];
    config.onUnhandledError = (e) => errors.push(e);
    const heard: string[] = [];
    const tool = defineTool({
      name: "remote",
      description: "",
      schema: z.object({ n: z.number() }),
      handler: (_args, ctx) => {
        ctx.progress({ progress: 1, data: { handle: "h" } });
        return ok("fine");
      },
    });
    const throwing: JournalReattach = {
      handleOf: () => {
        throw new Error("boom");
      },
      callOf: (call) => call,
    };
    const result = await runAgent({
      model,
      tools: [tool],
      messages: input,
      journal: { store: new MemoryJournalStore(), conversationKey: "conv", reattach: throwing },
      onCallReport: (r) => heard.push(r.type),
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(result.haltedReason).toBe("completed");
    expect(result.messages.find((m) => m.role === "tool")?.content).toContain("fine");
    expect(heard).toEqual(["progress"]);
    expect(errors).toEqual([new Error("boom")]);
  });

  it.each([null, 1, {}, { handleOf: () => undefined }, { callOf: (c: unknown) => c }])("refuses journal.reattach %j before anything runs", (bad) => {
    const options = { model, tools: [], messages: input, journal: { store: new MemoryJournalStore(), conversationKey: "conv", reattach: bad } };
    expect(() => streamAgent(options as never)).toThrow(/`journal.reattach`/);
  });
});
