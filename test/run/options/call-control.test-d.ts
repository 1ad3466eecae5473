import { Subject } from "rxjs";
import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { defineTool, ok, type CallReport, type ToolControl } from "../../../src/index.js";
import type { CallCancellation, RunOptions } from "../../../src/run/options/run-options";
import type { RetryPolicy } from "../../../src/tool/retry-policy.js";
import type { HandlerContext } from "../../../src/tool/handler-context.js";

describe("call control types", () => {
  it("narrows a CallReport by its type", () => {
    const seen = (report: CallReport) => {
      expectTypeOf(report.index).toEqualTypeOf<number>();
      switch (report.type) {
        case "progress":
          expectTypeOf(report.progress).toEqualTypeOf<number>();
          expectTypeOf(report.total).toEqualTypeOf<number | undefined>();
          break;
        case "recipe_step_succeeded":
          expectTypeOf(report.content).toEqualTypeOf<string>();
          expectTypeOf(report.stepCallId).toEqualTypeOf<string>();
          break;
        case "attempt_failed":
          expectTypeOf(report.retryIn).toEqualTypeOf<number>();
          break;
        case "late_settlement":
          if (report.settled) expectTypeOf(report.lateBy).toEqualTypeOf<number>();
          else expectTypeOf(report.grace).toEqualTypeOf<number>();
          break;
      }
    };
    expectTypeOf(seen).toMatchTypeOf<NonNullable<RunOptions["onCallReport"]>>();
  });

  it("gives handlers ctx.progress", () => {
    expectTypeOf<HandlerContext["progress"]>().parameter(0).toMatchTypeOf<{ progress: number; total?: number; message?: string }>();
    // @ts-expect-error progress is required
    expectTypeOf<HandlerContext["progress"]>().toBeCallableWith({ total: 3 });
  });

  it("takes control on a tool, and cancel as an Observable of ids or requests", () => {
    const control: ToolControl = { concurrency: { group: "db", limit: 4 }, idempotent: true, retry: { attempts: 3 } };
    defineTool({ name: "t", description: "", schema: z.object({}), control, handler: () => ok(1) });
    // @ts-expect-error a retry policy needs attempts
    const bad: RetryPolicy = { delay: 10 };
    void bad;
    expectTypeOf(new Subject<CallCancellation>()).toMatchTypeOf<NonNullable<RunOptions["cancel"]>>();
    expectTypeOf(new Subject<string>()).toMatchTypeOf<NonNullable<RunOptions["cancel"]>>();
  });
});
