import { z } from "zod";
import { defineTool, ok, runToolCalls, type CallHook, type Tool } from "../../../src/index.js";
import { call } from "../../support/helpers.js";

// The SQL tool of the call-hook tests (call-hooks.test.ts, call-hooks-failures.test.ts), and its batch of one call.

/** What the SQL tool's handler ran, `query/limit`, in order. */
export const seen: string[] = [];
/** Records each query it runs in `seen`; `limit` defaults to 10. */
export const sql = defineTool({
  name: "sql",
  description: "",
  schema: z.object({ query: z.string(), limit: z.number().default(10) }),
  handler: ({ query, limit }) => {
    seen.push(`${query}/${limit}`);
    return ok({ rows: [query], limit });
  },
});

/** One call of `tool` with `args` through `hooks`: its messages, `seen` emptied first. */
export const messagesOf = async (hooks: CallHook[], args: Record<string, unknown> = { query: "select" }, tool: Tool = sql as Tool) => {
  seen.length = 0;
  return (await runToolCalls([call("c1", tool.name, args)], [tool], { hooks })).messages;
};

/** The SQL tool's definition, to define it again with hooks of its own. */
export function sqlDefinition() {
  return {
    name: "sql",
    description: "",
    schema: z.object({ query: z.string(), limit: z.number().default(10) }),
    handler: ({ query }: { query: string; limit: number }) => ok({ rows: [query] }),
  };
}
