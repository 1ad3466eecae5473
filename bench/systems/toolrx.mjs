/**
 * toolrx, both ways a user runs it: `streamToolCalls` consumed event by event, and
 * `runToolCalls` collected into ordered messages. The tool validates its arguments with zod and
 * every result is encoded to its message content, as in real use; nothing is switched off.
 */
import { from } from "rxjs";
import { defineTool, ok, runToolCalls, streamToolCalls } from "../../dist/index.js";
import { z } from "../lib/zod.mjs";

function workTool(handler) {
  return defineTool({
    name: "work",
    description: "The benchmark's shared handler",
    schema: z.object({ i: z.number() }),
    // The shared handler returns `ok(value)` itself, as a toolrx tool does.
    handler: (args) => handler(args, undefined, ok),
  });
}

/** Options as a user writes them: without a deadline given, toolrx's default (30 s) is on. */
function options({ concurrency, deadlineMs }) {
  return deadlineMs === undefined ? { maxConcurrency: concurrency } : { maxConcurrency: concurrency, toolTimeout: deadlineMs };
}

/** @type {import("../lib/system.mjs").System} */
export const stream = {
  name: "toolrx-stream",
  kind: "stream",
  limitsConcurrency: true,
  perToolDeadline: true,
  streams: true,
  note: undefined,
  async prepare(setup) {
    const tools = [workTool(setup.handler)];
    const opts = options(setup);
    const { onSettled } = setup;
    return {
      // An array is a batch (checked up front); anything else is streamed in as an Observable.
      run: (calls) =>
        new Promise((resolve, reject) => {
          let results = 0;
          streamToolCalls(Array.isArray(calls) ? calls : from(calls), tools, opts).subscribe({
            next(event) {
              if (event.type === "tool_execution_completed") {
                results++;
                onSettled?.(event.index);
              }
            },
            error: reject,
            complete: () => resolve(results),
          });
        }),
    };
  },
};

/** @type {import("../lib/system.mjs").System} */
export const batch = {
  name: "toolrx-batch",
  kind: "batch",
  limitsConcurrency: true,
  perToolDeadline: true,
  reportsEachCall: false,
  streams: false,
  note: undefined,
  async prepare(setup) {
    const tools = [workTool(setup.handler)];
    const opts = options(setup);
    const { keep } = setup;
    return {
      run: async (calls) => {
        const { messages } = await runToolCalls(calls, tools, opts);
        keep?.(messages);
        return messages.length;
      },
    };
  },
};
