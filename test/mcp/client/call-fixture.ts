import { afterEach } from "vitest";
import type { ToolCall } from "../../../src/index.js";
import { connect, type Connected, type LINES, type TestTool } from "../support/servers";

/**
 * What the MCP client's call tests (calls, call-deadlines, call-failures) share: a server per test
 * on one SDK line, closed after the test, and a call to one of its tools.
 */
export function servedPerTest(): (line: (typeof LINES)[number], tools: TestTool[]) => Promise<Connected> {
  const open: Connected[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close().catch(() => {})));
  });
  return async (line, tools) => {
    const c = await connect(line, { tools });
    open.push(c);
    return c;
  };
}

/** A call of `name`, with the id `c-<name>` unless told. */
export const call = (name: string, args: Record<string, unknown> = {}, id = `c-${name}`): ToolCall => ({ id, name, arguments: args });
