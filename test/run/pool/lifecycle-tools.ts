import { defineTool, ok, type HandlerResult } from "../../../src/index.js";
import type { HandlerContext } from "../../../src/tool/handler-context.js";
import { anyArgs, deferred } from "../../support/helpers.js";

/** A tool whose calls wait for the test to settle them, recording each one's ctx. */
export function controlledTool(name = "slow") {
  const pending: { ctx: HandlerContext; settle: (r: HandlerResult) => void }[] = [];
  const tool = defineTool({
    name,
    description: "",
    schema: anyArgs,
    handler: (_args, ctx) => {
      const d = deferred<HandlerResult>();
      pending.push({ ctx, settle: d.resolve });
      return d.promise;
    },
  });
  return { tool, pending };
}

/** A tool whose calls never settle. */
export const never = defineTool({ name: "never", description: "", schema: anyArgs, handler: () => new Promise<HandlerResult>(() => {}) });
/** A tool that answers at once. */
export const instant = defineTool({ name: "instant", description: "", schema: anyArgs, handler: () => ok("instant") });
