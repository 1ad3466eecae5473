import { defineTool, type HandlerResult } from "../../../src/index.js";
import { anyArgs } from "../../support/helpers.js";

/** A tool whose handler returns `result` as it is, legal or not. */
export function toolReturning(result: unknown, name = "t") {
  return defineTool({ name, description: "", schema: anyArgs, handler: () => result as HandlerResult });
}
