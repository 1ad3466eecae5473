import { EngineError } from "./engine-error.js";
import type { CallIdentity } from "./tool-call.js";
import { ToolError } from "./tool-error.js";

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

function listed(available: readonly string[], closest: string | undefined): string {
  if (available.length === 0) return "no tools were given";
  const list = `available tools: ${available.join(", ")}`;
  return closest === undefined ? list : `${list}; did you mean "${closest}"?`;
}

/**
 * The available name nearest to `name` by edit distance (case ignored), when it is near enough
 * to be a likely typo: at most a third of the name's length, and at least 1, apart.
 */
export function closestName(name: string, available: readonly string[]): string | undefined {
  const wanted = name.toLowerCase();
  const limit = Math.max(1, Math.floor(wanted.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of available) {
    const distance = editDistance(wanted, candidate.toLowerCase(), bestDistance);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Levenshtein distance, cut short once it reaches `cap` (the caller only needs smaller ones). */
function editDistance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) >= cap) return cap;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min((previous[j] as number) + 1, (row[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
      row.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin >= cap) return cap;
    previous = row;
  }
  return previous[b.length] as number;
}
