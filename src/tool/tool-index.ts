import { controlOf } from "./tool-control.js";
import type { Tool } from "./tool.js";

/**
 * The tools by name, refusing up front what would otherwise fail later or silently:
 * - two tools with one name: a model is offered both (providers refuse such a request) and the
 *   runner would answer every call with the first;
 * - a malformed `control` on a tool written as a plain object;
 * - tools of one concurrency group that disagree on its `limit`: found only when the second
 *   one's call started, after others had run.
 *
 * `list` names the array in messages (`tools`, `availableTools()`).
 *
 * @throws {TypeError} naming both tools' positions (and an MCP tool's server), or the group and
 * both limits.
 */
export function indexTools(tools: readonly Tool[], list = "tools"): Map<string, Tool> {
  const byName = new Map<string, Tool>();
  let groups: Map<string, Tool> | undefined;
  for (let i = 0; i < tools.length; i++) {
    const tool = tools[i] as Tool;
    const first = byName.get(tool.name);
    if (first !== undefined) {
      const at = tools.indexOf(first);
      throw new TypeError(
        `Two tools are named "${tool.name}": ${sourceOf(first, at, list)} and ${sourceOf(tool, i, list)}. A model cannot tell them apart and providers refuse the request: rename one (mcpTools has \`rename\`)`,
      );
    }
    byName.set(tool.name, tool);
    if (tool.control === undefined) continue;
    const control = controlOf(tool);
    if (control?.lane === undefined || !control.lane.startsWith("group:")) continue;
    groups ??= new Map();
    const other = groups.get(control.lane);
    if (other === undefined) groups.set(control.lane, tool);
    else if (controlOf(other)?.limit !== control.limit) {
      throw new TypeError(
        `Expected every tool of concurrency group "${control.lane.slice(6)}" to give the same \`limit\`: tool "${tool.name}" gives ${control.limit}, tool "${other.name}" ${controlOf(other)?.limit}`,
      );
    }
  }
  return byName;
}

/** Where a tool came from, as the user can find it: its position, and its MCP server if it has one. */
function sourceOf(tool: Tool, at: number, list: string): string {
  const mcp = (tool.metadata as { mcp?: { server?: unknown; name?: unknown } } | undefined)?.mcp;
  if (typeof mcp?.server !== "string") return `${list}[${at}]`;
  const remote = typeof mcp.name === "string" && mcp.name !== tool.name ? `, tool "${mcp.name}"` : "";
  return `${list}[${at}] (from MCP server "${mcp.server}"${remote})`;
}
