/**
 * After unsubscribe, calls parked for their tool's own concurrency limit are let go, even while a
 * handler of that tool ignores its abort and keeps its context (and through it, its call and lane).
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Subject } from "rxjs";
import { expect, it } from "vitest";
import { defineTool, streamToolCalls, type ToolCall } from "../../../src/index.js";
import type { HandlerContext } from "../../../src/tool/handler-context.js";
import { anyArgs } from "../../support/helpers.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

it("lets go of the calls parked in a lane when the stream is unsubscribed", async () => {
  const kept: HandlerContext[] = [];
  const tool = defineTool({
    name: "t",
    description: "",
    schema: anyArgs,
    control: { concurrency: 1 },
    handler: (_args, ctx) => {
      kept.push(ctx); // ignores ctx.signal and never lets go
      return new Promise<never>(() => {});
    },
  });
  const calls = new Subject<ToolCall>();
  const subscription = streamToolCalls(calls, [tool], { toolTimeout: Infinity }).subscribe();
  calls.next({ id: "running", name: "t", arguments: {} });
  const parked: WeakRef<ToolCall>[] = [];
  (() => {
    for (let i = 0; i < 20; i++) {
      const call: ToolCall = { id: `p${i}`, name: "t", arguments: { i } };
      parked.push(new WeakRef(call));
      calls.next(call);
    }
  })();
  expect(kept).toHaveLength(1); // the other 20 wait for the lane
  subscription.unsubscribe();
  await new Promise((resolve) => setTimeout(resolve, 0));
  gc();
  expect(parked.filter((ref) => ref.deref() !== undefined)).toHaveLength(0);
  expect(kept[0]?.signal.aborted).toBe(true);
});
