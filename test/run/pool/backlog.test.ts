import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Subject } from "rxjs";
import { describe, expect, it } from "vitest";
import { defineTool, ok, streamToolCalls, type ToolCall } from "../../../src/index.js";
import { anyArgs } from "../../support/helpers.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

describe("streamToolCalls with a standing backlog (issue 9.12)", () => {
  it("lets go of the calls it has started while others still wait, so memory stays flat", async () => {
    const total = 20_000;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // Calls past `total` wait, so the backlog stands while memory is checked.
    const tool = defineTool({
      name: "t",
      description: "",
      schema: anyArgs,
      handler: async ({ i }) => {
        if ((i as number) >= total) await gate;
        return ok(1);
      },
    });
    const calls = new Subject<ToolCall>();
    const backlog = 16;
    const early: WeakRef<ToolCall>[] = [];
    let pushed = 0;
    const push = () => {
      const c: ToolCall = { id: `c${pushed}`, name: "t", arguments: { i: pushed } };
      if (pushed < total / 2) early.push(new WeakRef(c));
      pushed++;
      calls.next(c);
    };
    let alive = -1;
    await new Promise<void>((resolve, reject) => {
      let completed = 0;
      streamToolCalls(calls, [tool], { maxConcurrency: 4 }).subscribe({
        next(e) {
          if (e.type !== "tool_result_encoded") return;
          completed++;
          if (completed === total) {
            // 16 calls still wait behind 4 running: the queue has never emptied. The check runs
            // in a task of its own, since a WeakRef keeps its target for the rest of its job.
            setTimeout(() => {
              gc();
              alive = early.filter((w) => w.deref() !== undefined).length;
              calls.complete();
              release();
            });
          } else if (pushed < total + backlog + 4) push();
        },
        error: reject,
        complete: resolve,
      });
      for (let i = 0; i < backlog + 4; i++) push();
    });
    expect(early).toHaveLength(total / 2);
    expect(alive).toBe(0);
  }, 60_000);
});
