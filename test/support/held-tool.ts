import { defineTool, type HandlerResult } from "../../src/index.js";
import type { HandlerContext } from "../../src/tool/handler-context.js";
import { anyArgs, deferred } from "./helpers.js";

/** A tool whose calls wait until the test settles them, by call id. */
export function held(name = "slow") {
  const pending = new Map<string, { ctx: HandlerContext; settle: (r: HandlerResult) => void; fail: (e: unknown) => void }>();
  const tool = defineTool({
    name,
    description: "",
    schema: anyArgs,
    handler: (_args, ctx) => {
      const d = deferred<HandlerResult>();
      pending.set(ctx.toolCall.id, { ctx, settle: d.resolve, fail: d.reject });
      return d.promise;
    },
  });
  return { tool, pending };
}
