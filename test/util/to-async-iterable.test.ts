import { defer, finalize, interval, map, Observable, of, Subject, take, throwError } from "rxjs";
import { describe, expect, it } from "vitest";
import { defineTool, ok, streamToolCalls, toAsyncIterable, type ToolEvent } from "../../src/index.js";
import { anyArgs, call, hangingTool } from "../support/helpers.js";

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const values: T[] = [];
  for await (const value of iterable) values.push(value);
  return values;
}

describe("toAsyncIterable", () => {
  it("gives every value in order, then ends when the Observable completes", async () => {
    expect(await collect(toAsyncIterable(of(1, 2, 3)))).toEqual([1, 2, 3]);
  });

  it("gives a tool batch's events to for await", async () => {
    const echo = defineTool({ name: "echo", description: "", schema: anyArgs, handler: async (args) => ok(args) });
    const events = await collect(toAsyncIterable(streamToolCalls([call("c1", "echo", { x: 1 })], [echo])));
    expect(events.map((e: ToolEvent) => e.type)).toEqual(["tool_execution_started", "tool_execution_completed", "tool_result_encoded"]);
  });

  describe("when the Observable errors", () => {
    it("throws the error from the loop after the values that came before it", async () => {
      const failure = new Error("boom");
      const values: number[] = [];
      await expect(async () => {
        for await (const value of toAsyncIterable(
          new Observable<number>((s) => {
            s.next(1);
            s.next(2);
            s.error(failure);
          }),
        ))
          values.push(value);
      }).rejects.toBe(failure);
      expect(values).toEqual([1, 2]);
    });

    it("throws once, and the iterator is done after it", async () => {
      const iterator = toAsyncIterable(throwError(() => "bad"))[Symbol.asyncIterator]();
      await expect(iterator.next()).rejects.toBe("bad");
      await expect(iterator.next()).resolves.toEqual({ done: true, value: undefined });
    });

    it("rejects a next() that was already waiting", async () => {
      const subject = new Subject<number>();
      const iterator = toAsyncIterable(subject)[Symbol.asyncIterator]();
      const pending = iterator.next();
      subject.error("late");
      await expect(pending).rejects.toBe("late");
    });
  });

  describe("when values arrive faster than the loop reads them", () => {
    it("buffers them and loses none", async () => {
      const subject = new Subject<number>();
      const iterator = toAsyncIterable(subject)[Symbol.asyncIterator]();
      const first = iterator.next();
      for (let i = 0; i < 1000; i++) subject.next(i);
      subject.complete();
      const values = [(await first).value];
      for (let r = await iterator.next(); r.done !== true; r = await iterator.next()) values.push(r.value);
      expect(values).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    });
  });

  describe("when next() is called several times without waiting", () => {
    it("settles them in order", async () => {
      const subject = new Subject<string>();
      const iterator = toAsyncIterable(subject)[Symbol.asyncIterator]();
      const results = [iterator.next(), iterator.next(), iterator.next()];
      subject.next("a");
      subject.next("b");
      subject.complete();
      expect(await Promise.all(results)).toEqual([
        { done: false, value: "a" },
        { done: false, value: "b" },
        { done: true, value: undefined },
      ]);
    });
  });

  describe("subscription", () => {
    it("does nothing until the loop asks for the first value", async () => {
      let subscribed = 0;
      const iterable = toAsyncIterable(
        defer(() => {
          subscribed++;
          return of(1);
        }),
      );
      const iterator = iterable[Symbol.asyncIterator]();
      expect(subscribed).toBe(0);
      await iterator.next();
      expect(subscribed).toBe(1);
    });

    it("subscribes afresh for each loop", async () => {
      let runs = 0;
      const iterable = toAsyncIterable(defer(() => of(++runs)));
      expect([...(await collect(iterable)), ...(await collect(iterable))]).toEqual([1, 2]);
    });
  });

  describe("when the loop ends early", () => {
    it("unsubscribes and ends a next() still waiting", async () => {
      let unsubscribed = false;
      const source = new Observable<number>((s) => {
        s.next(1);
        return () => (unsubscribed = true);
      });
      const iterator = toAsyncIterable(source)[Symbol.asyncIterator]();
      expect(await iterator.next()).toEqual({ done: false, value: 1 });
      const waiting = iterator.next();
      expect(await iterator.return?.()).toEqual({ done: true, value: undefined });
      expect(unsubscribed).toBe(true);
      await expect(waiting).resolves.toEqual({ done: true, value: undefined });
      await expect(iterator.next()).resolves.toEqual({ done: true, value: undefined });
    });

    it("on break, aborts the running handlers of a tool batch", async () => {
      const signals: AbortSignal[] = [];
      const hang = hangingTool(signals);
      for await (const event of toAsyncIterable(streamToolCalls([call("c1", "hang"), call("c2", "hang")], [hang]))) {
        if (event.type === "tool_execution_started" && signals.length === 2) break;
      }
      expect(signals.map((s) => s.aborted)).toEqual([true, true]);
    });

    it("stops an endless source", async () => {
      const seen: number[] = [];
      let finalized = false;
      for await (const value of toAsyncIterable(
        interval(1).pipe(
          map((i) => i * 10),
          finalize(() => (finalized = true)),
        ),
      )) {
        seen.push(value);
        if (seen.length === 3) break;
      }
      expect(seen).toEqual([0, 10, 20]);
      expect(finalized).toBe(true);
    });
  });

  it("throws a TypeError naming `source` when given something else", () => {
    expect(() => toAsyncIterable([1, 2] as never)).toThrow(new TypeError("Expected `source` to be an Observable, got an array"));
    expect(() => toAsyncIterable(take(1) as never)).toThrow(TypeError);
  });
});
