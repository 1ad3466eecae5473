import { EngineError } from "./engine-error.js";
import type { CallIdentity } from "./tool-call.js";
import { ToolError } from "./tool-error.js";
import { closestName } from "../util/closest-name.js";

/**
 * The `EngineError` for a batch that names a tool it was not given: it lists the tools that
 * exist and the closest name, since the usual cause is a typo or a tool left out of the list.
 *
 * @example
 * unknownTool("wether", ["weather", "search"]).message;
 * // 'tool wether not in tools; available tools: weather, search; did you mean "weather"?'
 */
export function unknownTool(name: string, available: readonly string[]): EngineError {
  const closest = closestName(name, available);
  const metadata = closest === undefined ? { toolName: name, availableTools: available } : { toolName: name, availableTools: available, closestMatch: closest };
  return new EngineError("unknown_tool", metadata, `tool ${name} not in tools; ${listed(available, closest)}`);
}

/**
 * The `not_found` error that answers one call naming an unknown tool, worded for the model so
 * that it can call again with a name that exists.
 */
export function toolNotFound(who: CallIdentity, available: readonly string[]): ToolError {
  const closest = closestName(who.toolName, available);
  return new ToolError("not_found", {
    message: `tool ${who.toolName} does not exist; ${listed(available, closest)}`,
    toolName: who.toolName,
    toolCallId: who.toolCallId,
    metadata: closest === undefined ? { availableTools: available } : { availableTools: available, closestMatch: closest },
  });
}

/**
 * The `not_found` error for a call naming a tool the run has but this turn does not offer (a
 * turn plan hid it): `message` says so and how to get it, so the model does not conclude the
 * tool is gone.
 */
export function toolNotOffered(who: CallIdentity, message: string, available: readonly string[]): ToolError {
  return new ToolError("not_found", { message, toolName: who.toolName, toolCallId: who.toolCallId, metadata: { availableTools: available, notOffered: true } });
}

function listed(available: readonly string[], closest: string | undefined): string {
  if (available.length === 0) return "no tools were given";
  const list = `available tools: ${available.join(", ")}`;
  return closest === undefined ? list : `${list}; did you mean "${closest}"?`;
}
