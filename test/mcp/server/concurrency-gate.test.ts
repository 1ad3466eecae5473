import { describe, expect, it } from "vitest";
import { ConcurrencyGate } from "../../../src/mcp/server/concurrency-gate.js";

describe("ConcurrencyGate (serveTools' bound across requests)", () => {
  it("grants slots in arrival order as they free up", async () => {
    const gate = new ConcurrencyGate(1);
    const never = new AbortController().signal;
    const order: string[] = [];
    const first = await gate.acquire(never);
    const b = gate.acquire(never).then((release) => {
      order.push("b");
      return release;
    });
    const c = gate.acquire(never).then((release) => {
      order.push("c");
      return release;
    });
    first();
    (await b)();
    (await c)();
    expect(order).toEqual(["b", "c"]);
  });

  it("a waiter whose request is cancelled leaves the queue without taking a slot", async () => {
    const gate = new ConcurrencyGate(1);
    const never = new AbortController().signal;
    const held = await gate.acquire(never);
    const cancel = new AbortController();
    const cancelled = gate.acquire(cancel.signal);
    const next = gate.acquire(never);
    cancel.abort(new Error("client cancelled"));
    await expect(cancelled).rejects.toThrow("client cancelled");
    held();
    const release = await next; // the slot went to the next waiter, not to the cancelled one
    release();
    release(); // releasing twice frees one slot only
    const a = await gate.acquire(never);
    let second = false;
    void gate.acquire(never).then(() => (second = true));
    await Promise.resolve();
    expect(second).toBe(false);
    a();
  });
});
