import { firstValueFrom, from, toArray } from "rxjs";
import { TestScheduler } from "rxjs/testing";
import { describe, expect, it } from "vitest";
import type { ModelRequest } from "../../src/index.js";
import { scriptedModel } from "../../src/testing/index.js";
import { finish, text, toolCall } from "../support/agent-helpers.js";

const request = (turn = 0, signal = new AbortController().signal): ModelRequest => ({ messages: [], tools: [], turn, signal });

describe("scriptedModel", () => {
  it("plays one turn per request, in order, and records the requests", async () => {
    const model = scriptedModel([[text("a"), finish("stop")], [toolCall("c1", "t")]]);
    const r0 = request(0);
    expect(await firstValueFrom(from(model(r0)).pipe(toArray()))).toEqual([text("a"), finish("stop")]);
    expect(await firstValueFrom(from(model(request(1))).pipe(toArray()))).toEqual([toolCall("c1", "t")]);
    expect(model.requests[0]).toBe(r0);
    await expect(firstValueFrom(from(model(request(2))))).rejects.toThrow("scriptedModel: no turn 2 in a script of 2");
  });

  it("builds a turn from the request when given a function", async () => {
    const model = scriptedModel([(r) => [text(`turn ${r.turn}`)]]);
    expect(await firstValueFrom(from(model(request(7))))).toEqual(text("turn 7"));
  });

  it("waits on the scheduler: delay before every event, and { wait } pauses", () => {
    new TestScheduler((a, b) => expect(a).toEqual(b)).run(({ expectObservable }) => {
      const model = scriptedModel([[text("a"), { wait: 30 }, text("b"), finish("stop"), { wait: 5 }]], { delay: 10 });
      expectObservable(from(model(request()))).toBe("10ms a 39ms b 9ms c 4ms |", { a: text("a"), b: text("b"), c: finish("stop") });
    });
  });

  it("stops with the signal's reason when the request is aborted", () => {
    new TestScheduler((a, b) => expect(a).toEqual(b)).run(({ expectObservable, cold }) => {
      const controller = new AbortController();
      const model = scriptedModel([[text("a"), text("b")]], { delay: 10 });
      cold("15ms x").subscribe(() => controller.abort("gone"));
      expectObservable(from(model(request(0, controller.signal)))).toBe("10ms a 4ms #", { a: text("a") }, "gone");
    });
  });

  it("checks its options", () => {
    expect(() => scriptedModel([], { delay: -1 })).toThrow("Expected `delay` to be a non-negative number of milliseconds, got -1");
    expect(() => scriptedModel("x" as never)).toThrow(TypeError);
  });
});
