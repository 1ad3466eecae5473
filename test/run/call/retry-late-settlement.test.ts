import { Subject } from "rxjs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ok, streamToolCalls, type HandlerResult } from "../../../src/index.js";
import { anyArgs, call } from "../../support/helpers.js";
import { manualScheduler } from "../../support/manual-scheduler.js";
import { run, toolT } from "./retry-fixtures.js";

describe("retries of one call", () => {
  it("gives every attempt the same validated arguments", async () => {
    const scheduler = manualScheduler();
    const seen: unknown[] = [];
    const tool = defineTool({
      name: "t",
      description: "",
      schema: z.object({ city: z.string(), units: z.string().default("C") }),
      control: { idempotent: true, retry: { attempts: 2, delay: 10, jitter: false } },
      handler: (args) => {
        seen.push(args);
        if (seen.length === 1) throw new Error("flaky");
        return ok("sunny");
      },
    });
    streamToolCalls([call("c", "t", { city: "Oslo" })], [tool], { scheduler }).subscribe();
    await scheduler.advance(10);
    expect(seen).toEqual([
      { city: "Oslo", units: "C" },
      { city: "Oslo", units: "C" },
    ]);
  });

  it("never asks the retryOn predicate about a success, nor retries it", async () => {
    const scheduler = manualScheduler();
    let asked = 0;
    let attempts = 0;
    const tool = toolT(
      () => {
        attempts++;
        return ok("fine");
      },
      {
        idempotent: true,
        retry: {
          attempts: 3,
          retryOn: () => {
            asked++;
            return true;
          },
        },
      },
    );
    const r = run(scheduler, tool);
    await scheduler.advance(10_000);
    expect([attempts, asked]).toEqual([1, 0]);
    expect(r.completed).toEqual([expect.objectContaining({ result: ok("fine") })]);
  });

  it("does not start a retry whose backoff would end exactly at the total bound", async () => {
    const scheduler = manualScheduler();
    let attempts = 0;
    const tool = toolT(
      () => {
        attempts++;
        throw new Error("flaky");
      },
      { idempotent: true, retry: { attempts: 2, delay: 300, jitter: false, totalTimeout: 300 } },
    );
    const r = run(scheduler, tool);
    await scheduler.advance(1_000);
    expect(attempts).toBe(1);
    expect(r.done()).toBe(true);
  });

  it("does not ask the retryOn predicate about a failure once the total bound has passed", async () => {
    const scheduler = manualScheduler();
    const asked: unknown[] = [];
    const tool = toolT(() => new Promise<HandlerResult>(() => {}), {
      idempotent: true,
      retry: {
        attempts: 3,
        delay: 10,
        jitter: false,
        totalTimeout: 150,
        retryOn: (e) => {
          asked.push((e as { metadata: { deadline: string } }).metadata.deadline);
          return true;
        },
      },
    });
    const r = run(scheduler, tool, { toolTimeout: 100 });
    await scheduler.advance(1_000);
    expect(asked).toEqual(["toolTimeout"]);
    expect(r.completed).toEqual([
      expect.objectContaining({
        result: expect.objectContaining({ reason: expect.objectContaining({ metadata: expect.objectContaining({ deadline: "totalTimeout" }) }) }),
      }),
    ]);
  });

  it("leaves no backoff timer when the call is cancelled by id from its attempt_failed report", async () => {
    const scheduler = manualScheduler();
    const cancel = new Subject<string>();
    const flaky = toolT(
      () => {
        throw new Error("flaky");
      },
      { idempotent: true, retry: { attempts: 3, delay: 100, jitter: false } },
    );
    // Another call, without any deadline, keeps the stream open.
    const wait = defineTool({ name: "wait", description: "", schema: anyArgs, handler: () => new Promise<HandlerResult>(() => {}) });
    const tails: string[] = [];
    streamToolCalls([call("c", "t"), call("w", "wait")], [flaky, wait], {
      scheduler,
      cancel,
      toolTimeout: Infinity,
      onCallReport: (report) => report.type === "attempt_failed" && cancel.next("c"),
    }).subscribe((e) => e.type === "tool_result_encoded" && tails.push(e.toolCallId));
    expect(tails).toEqual(["c"]);
    expect(scheduler.live).toBe(0);
  });
});

describe("a call cancelled by id while its handler runs", () => {
  it("leaves no timer once the stream completes", async () => {
    const scheduler = manualScheduler();
    const cancel = new Subject<string>();
    const r = run(
      scheduler,
      toolT(() => new Promise<HandlerResult>(() => {})),
      { cancel, onCallReport: undefined, toolTimeout: 1_000 },
    );
    await scheduler.advance(10);
    cancel.next("c");
    expect(r.done()).toBe(true);
    expect(scheduler.live).toBe(0);
  });
});
