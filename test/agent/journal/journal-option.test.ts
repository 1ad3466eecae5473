import { describe, expect, it } from "vitest";
import { MemoryJournalStore, type ToolCall } from "../../../src/index.js";

// Issue 36: the `journal` option and what a restart does with a call cut off mid-run, each held to what a host relies on.

describe("after a restart, a call cut off mid-run (journal-calls)", () => {
  const call = { id: "c1", name: "pay", arguments: { eur: 5 } };
  const tool = (control?: { idempotent: boolean }) =>
    ({ name: "pay", description: "", parameters: {}, handler: () => "x", ...(control && { control }) }) as never;

  it("is sent again only for an idempotent tool or an executor that re-attaches to its work", async () => {
    const { resendsInFlight } = await import("../../../src/agent/journal/journal-calls.js");
    expect(resendsInFlight(tool({ idempotent: true }), {})).toBe(true);
    expect(resendsInFlight(tool({ idempotent: false }), {})).toBe(false);
    expect(resendsInFlight(tool(), {})).toBe(false);
    expect(resendsInFlight(undefined, {})).toBe(false);
    const reattaching = { execute: () => "x", reattaches: true } as never;
    expect(resendsInFlight(tool(), { toolExecutor: reattaching })).toBe(true);
    expect(resendsInFlight(undefined, { toolExecutor: reattaching })).toBe(true);
    expect(resendsInFlight(tool(), { engine: { toolExecutor: reattaching } as never })).toBe(true);
    expect(resendsInFlight(tool(), { toolExecutor: { execute: () => "x", reattaches: "yes" } as never })).toBe(false);
    const perTool = { execute: () => "x", reattaches: (t: { name: string }) => t.name === "pay" } as never;
    expect(resendsInFlight(tool(), { toolExecutor: perTool })).toBe(true);
    expect(resendsInFlight({ ...(tool() as object), name: "other" } as never, { toolExecutor: perTool })).toBe(false);
    expect(resendsInFlight(undefined, { toolExecutor: perTool })).toBe(false);
    const truthy = { execute: () => "x", reattaches: () => 1 } as never;
    expect(resendsInFlight(tool(), { toolExecutor: truthy })).toBe(false);
    // The run's own executor wins over the engine's.
    expect(resendsInFlight(tool(), { toolExecutor: { execute: () => "x" } as never, engine: { toolExecutor: reattaching } as never })).toBe(false);
  });

  it("is otherwise answered handler_exit with an unknown fate, through the run's encoder when it can", async () => {
    const { unknownFateMessage } = await import("../../../src/agent/journal/journal-calls.js");
    const { jsonEncoder, ToolError } = await import("../../../src/index.js");
    const text =
      "tool error (pay): handler_exit: the process running this call stopped before it settled; whether its effect happened is unknown, and it was not run again";
    const seen: unknown[] = [];
    const own = {
      encode: () => "",
      encodeError: (e: unknown) => {
        seen.push(e);
        return `E:${(e as Error).message}`;
      },
    };
    expect(unknownFateMessage(call, own)).toEqual({ role: "tool", toolCallId: "c1", name: "pay", content: `E:${text}`, isError: true });
    expect(seen[0]).toBeInstanceOf(ToolError);
    expect(seen[0]).toMatchObject({ reason: "handler_exit", toolName: "pay", toolCallId: "c1", metadata: { fate: "unknown" } });
    const expected = jsonEncoder.encodeError(seen[0]);
    for (const broken of [
      () => {
        throw new Error("encoder down");
      },
      () => 42,
    ]) {
      const message = unknownFateMessage(call, { encode: () => "", encodeError: broken as never });
      expect(message).toEqual({ role: "tool", toolCallId: "c1", name: "pay", content: expected, isError: true });
    }
  });
});

describe("the `journal` option (journal.ts)", () => {
  const store = new MemoryJournalStore();

  it("takes a store and a key, with a 30 s lease and a day's retention by default", async () => {
    const { checkJournalOptions } = await import("../../../src/agent/journal/journal.js");
    expect(checkJournalOptions(undefined)).toBeUndefined();
    expect(checkJournalOptions({ store, conversationKey: "k" })).toEqual({
      store,
      key: "k",
      owner: undefined,
      leaseMs: 30_000,
      retainMs: 86_400_000,
      fork: false,
    });
    expect(checkJournalOptions({ store, conversationKey: "k", owner: "w", leaseMs: 10, retainMs: 0 })).toEqual({
      store,
      key: "k",
      owner: "w",
      leaseMs: 10,
      retainMs: 0,
      fork: false,
    });
    const reattach = { handleOf: () => undefined, callOf: (call: ToolCall) => call };
    expect(checkJournalOptions({ store, conversationKey: "k", reattach })?.reattach).toBe(reattach);
    expect(checkJournalOptions({ store, conversationKey: "k", leaseMs: 2_147_483_647, retainMs: Infinity })).toMatchObject({
      leaseMs: 2_147_483_647,
      retainMs: Infinity,
    });
  });

  it.each([
    [null, "Expected `journal` to be { store, conversationKey }, got null"],
    ["k", 'Expected `journal` to be { store, conversationKey }, got "k"'],
    [{ conversationKey: "k" }, "Expected `journal.store` to be a JournalStore with `acquire`, got undefined"],
    [{ store: { ...store, acquire: store.acquire, append: store.append, renew: store.renew }, conversationKey: "k" }, "with `release`, got an object"],
    [{ store: { acquire() {}, renew() {}, release() {} }, conversationKey: "k" }, "with `append`, got an object"],
    [{ store: { acquire() {}, append() {}, release() {} }, conversationKey: "k" }, "with `renew`, got an object"],
    [{ store }, "Expected `journal.conversationKey` to be a non-empty string, got undefined"],
    [{ store, conversationKey: "" }, 'Expected `journal.conversationKey` to be a non-empty string, got ""'],
    [{ store, conversationKey: "k", owner: "" }, 'Expected `journal.owner` to be a non-empty string, got ""'],
    [{ store, conversationKey: "k", owner: 1 }, "Expected `journal.owner` to be a non-empty string, got 1"],
    [{ store, conversationKey: "k", fork: "yes" }, 'Expected `journal.fork` to be a boolean, got "yes"'],
    [{ store, conversationKey: "k", leaseMs: 9.5 }, "Expected `journal.leaseMs` to be a number of milliseconds from 10 to 2147483647, got 9.5"],
    [{ store, conversationKey: "k", leaseMs: 2_147_483_648 }, "from 10 to 2147483647, got 2147483648"],
    [{ store, conversationKey: "k", leaseMs: Infinity }, "from 10 to 2147483647, got Infinity"],
    [{ store, conversationKey: "k", leaseMs: "50" }, 'from 10 to 2147483647, got "50"'],
    [{ store, conversationKey: "k", retainMs: -1 }, "Expected `journal.retainMs` to be a non-negative number of milliseconds or Infinity, got -1"],
    [{ store, conversationKey: "k", retainMs: Number.NaN }, "or Infinity, got NaN"],
    [{ store, conversationKey: "k", retainMs: "0" }, 'or Infinity, got "0"'],
    [{ store, conversationKey: "k", reattach: null }, "Expected `journal.reattach` to be { handleOf, callOf }, got null"],
    [{ store, conversationKey: "k", reattach: { handleOf: () => undefined } }, "Expected `journal.reattach` to be { handleOf, callOf }, got an object"],
    [{ store, conversationKey: "k", reattach: { callOf: (call: unknown) => call } }, "Expected `journal.reattach` to be { handleOf, callOf }, got an object"],
    [{ store, conversationKey: "k", reattach: { handleOf: "h", callOf: "c" } }, "Expected `journal.reattach` to be { handleOf, callOf }, got an object"],
  ])("refuses %o, naming the field", async (journal, message) => {
    const { checkJournalOptions } = await import("../../../src/agent/journal/journal.js");
    expect(() => checkJournalOptions(journal)).toThrow(TypeError);
    expect(() => checkJournalOptions(journal)).toThrow(message);
  });
});
