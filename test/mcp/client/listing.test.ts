import { getEventListeners } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { runToolCalls, toolJsonSchema } from "../../../src/index.js";
import { defaultToolName, McpToolsError, mcpTools, type McpClientLike } from "../../../src/mcp/index.js";
import { connect, LINES, text, type Connected } from "../support/servers";
import { must } from "../../support/must.js";

const open: Connected[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});
async function server(...args: Parameters<typeof connect>): Promise<Connected> {
  const c = await connect(...args);
  open.push(c);
  return c;
}
const echo = (name: string) => ({ name, handler: () => text(name) });

describe.each(LINES)("mcpTools (SDK %s)", (line) => {
  describe("when the server pages its tool list", () => {
    it("reads every page, not just the first", async () => {
      const names = ["a", "b", "c", "d", "e"];
      const { client, listCalls } = await server(line, { tools: names.map(echo), pageSize: 2 });
      const tools = await mcpTools(client);
      expect(tools.map((t) => t.name)).toEqual(names);
      expect(listCalls).toEqual([undefined, "2", "4"]);
    });

    it("does not loop when the cursor does not advance", async () => {
      const page = { tools: [{ name: "a", inputSchema: { type: "object" } }], nextCursor: "same" };
      const { client, listCalls } = await server(line, { tools: [], list: () => page });
      if (line === "v1") {
        // toolrx walks v1's pages and sees the cursor come back.
        await expect(mcpTools(client)).rejects.toMatchObject({ name: "McpToolsError", reason: "cursor_loop" });
      } else {
        // v2 walks the pages itself and stops at a page that repeats the one before.
        expect((await mcpTools(client)).map((t) => t.name)).toEqual(["a"]);
      }
      expect(listCalls).toEqual([undefined, "same"]);
    });
  });

  describe("when tools come from several servers", () => {
    it("prefixes each name with its server's key, so equal names do not collide", async () => {
      const a = await server(line, { tools: [echo("search")] });
      const b = await server(line, { tools: [echo("search")] });
      const tools = await mcpTools({ github: a.client, jira: b.client });
      expect(tools.map((t) => t.name)).toEqual(["github__search", "jira__search"]);
      const result = await runToolCalls(
        [
          { id: "1", name: "jira__search", arguments: {} },
          { id: "2", name: "github__search", arguments: {} },
        ],
        tools,
      );
      expect(result.messages.map((m) => m.content)).toEqual(["search", "search"]);
    });

    it("refuses two tools that end up with one name, naming both, unless `rename` separates them", async () => {
      const a = await server(line, { tools: [echo("b__c")] });
      const b = await server(line, { tools: [echo("c")] });
      const e = await mcpTools({ a: a.client, a__b: b.client }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(McpToolsError);
      expect(e).toMatchObject({ reason: "duplicate_name", server: "a__b", toolName: "c" });
      expect((e as Error).message).toContain('tool "b__c" of server "a"');
      const tools = await mcpTools(
        { a: a.client, a__b: b.client },
        { rename: ({ server, name, defaultName }) => (server === "a__b" ? `ab_${name}` : defaultName) },
      );
      expect(tools.map((t) => t.name)).toEqual(["a__b__c", "ab_c"]);
    });
  });

  it("makes names provider-safe and keeps the server's name in metadata", async () => {
    const { client } = await server(line, { tools: [echo("repos/search.code")] });
    const [tool] = await mcpTools(client, { prefix: "gh" });
    expect(must(tool).name).toBe("gh__repos_search_code");
    expect(must(tool).metadata.mcp).toMatchObject({ server: "", name: "repos/search.code" });
    const result = await runToolCalls([{ id: "1", name: "gh__repos_search_code", arguments: {} }], [must(tool)]);
    expect(must(result.messages[0]).content).toBe("repos/search.code");
  });

  it("puts the annotations in metadata, hints as booleans with the spec's defaults", async () => {
    const { client } = await server(line, {
      tools: [{ name: "get", annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false, title: "Get" } }, { name: "put" }],
    });
    const [get, put] = await mcpTools(client);
    expect(must(get).metadata).toEqual({
      mcp: { server: "", name: "get", title: "Get", annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false, title: "Get" } },
      readOnly: true,
      destructive: false,
      idempotent: true,
      openWorld: false,
    });
    expect(must(put).metadata).toMatchObject({ readOnly: false, destructive: true, idempotent: false, openWorld: true });
  });

  it("gives the model the server's input schema as is", async () => {
    const inputSchema = { type: "object", properties: { q: { type: "string", minLength: 1 } }, required: ["q"] };
    const { client } = await server(line, { tools: [{ name: "find", description: "Find things", inputSchema }] });
    const [tool] = await mcpTools(client);
    expect(must(tool).description).toBe("Find things");
    expect(toolJsonSchema(must(tool))).toEqual(inputSchema);
  });

  describe("bad input", () => {
    it("a server that is down: list_failed", async () => {
      const c = await server(line, { tools: [echo("a")] });
      await c.close();
      const e = await mcpTools(c.client).catch((x: unknown) => x);
      expect(e).toMatchObject({ name: "McpToolsError", reason: "list_failed" });
      expect((e as Error).message).toMatch(/^MCP server: tools\/list failed: /);
    });

    it("a server that hangs on tools/list: list_timeout after `listTimeout`", async () => {
      const { client } = await server(line, { tools: [], list: () => new Promise(() => {}) });
      const started = Date.now();
      const e = await mcpTools({ slow: client }, { listTimeout: 100 }).catch((x: unknown) => x);
      expect(e).toMatchObject({ reason: "list_timeout", server: "slow" });
      expect((e as Error).message).toBe('MCP server "slow": tools/list did not answer within 100 ms');
      expect(Date.now() - started).toBeLessThan(5_000);
    });

    it("a malformed tool list: a clear McpToolsError", async () => {
      const { client } = await server(line, { tools: [], list: () => ({ tools: "none" }) });
      const e = await mcpTools(client).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(McpToolsError);
      expect(["malformed_list", "list_failed"]).toContain((e as McpToolsError).reason);
    });

    it("a schema that is not JSON Schema: invalid_schema naming the tool", async () => {
      const { client } = await server(line, {
        tools: [{ name: "bad", inputSchema: { type: "object", properties: { a: { type: 42 } } } }],
      });
      const e = await mcpTools(client).catch((x: unknown) => x);
      expect(e).toMatchObject({ reason: "invalid_schema", toolName: "bad" });
      expect((e as Error).message).toBe(
        'MCP server: tool "bad" has a schema that is not JSON Schema: inputSchema.properties.a.type is 42, not a JSON Schema type',
      );
    });

    it("a nested schema that is not JSON Schema, or a bad outputSchema: invalid_schema", async () => {
      const { client } = await server(line, {
        tools: [{ name: "deep", inputSchema: { type: "object", properties: { a: { type: "array", items: { anyOf: "x" } } } } }],
      });
      await expect(mcpTools(client)).rejects.toThrow("inputSchema.properties.a.items.anyOf is not an array of schemas");
      const other = await server(line, {
        tools: [{ name: "out", outputSchema: { type: "object", properties: { n: { type: "nmber" } } } }],
      });
      // 1.x compiles output schemas itself while listing and fails first; 2.x leaves it to toolrx.
      await expect(mcpTools(other.client)).rejects.toMatchObject(
        line === "v1"
          ? { name: "McpToolsError", reason: "list_failed", message: expect.stringContaining("nmber") }
          : {
              name: "McpToolsError",
              reason: "invalid_schema",
              message: expect.stringContaining('outputSchema.properties.n.type is "nmber", not a JSON Schema type'),
            },
      );
    });

    it("a duplicate name on one server: duplicate_name", async () => {
      const { client } = await server(line, { tools: [echo("twice"), echo("twice")] });
      await expect(mcpTools(client)).rejects.toMatchObject({ reason: "duplicate_name", toolName: "twice" });
    });
  });
});

describe("mcpTools with a client that is not an SDK's", () => {
  const fake = (page: unknown): McpClientLike => ({ listTools: async () => page, callTool: async () => ({ content: [] }) });

  it("rejects a page that is not a tool list with malformed_list", async () => {
    await expect(mcpTools(fake({ tools: [{ description: "no name" }] }))).rejects.toMatchObject({ reason: "malformed_list" });
    await expect(mcpTools(fake(null))).rejects.toMatchObject({ reason: "malformed_list" });
    await expect(mcpTools(fake({ tools: [{ name: "x" }] }))).rejects.toMatchObject({ reason: "invalid_schema", toolName: "x" });
  });

  it("stops when the cursor does not advance", async () => {
    let n = 0;
    const client: McpClientLike = {
      listTools: async () => ({ tools: [{ name: `t${n++}`, inputSchema: { type: "object" } }], nextCursor: n > 3 ? "again" : `c${n}` }),
      callTool: async () => ({ content: [] }),
    };
    await expect(mcpTools(client)).rejects.toMatchObject({ reason: "cursor_loop" });
  });

  it("leaves no listener on the caller's signal, whether listing succeeds or times out", async () => {
    const signal = new AbortController().signal;
    await mcpTools(fake({ tools: [] }), { signal });
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
    const hanging: McpClientLike = { listTools: () => new Promise(() => {}), callTool: async () => ({ content: [] }) };
    await expect(mcpTools(hanging, { signal, listTimeout: 20 })).rejects.toMatchObject({ reason: "list_timeout" });
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
  });

  it("stops listing when the caller's signal aborts, with the signal's reason", async () => {
    const controller = new AbortController();
    const hanging: McpClientLike = { listTools: () => new Promise(() => {}), callTool: async () => ({ content: [] }) };
    const listing = mcpTools(hanging, { signal: controller.signal });
    controller.abort(new Error("shutting down"));
    await expect(listing).rejects.toThrow("shutting down");
  });

  it("throws TypeErrors naming the option", async () => {
    const client = fake({ tools: [] });
    await expect(mcpTools(42 as never)).rejects.toThrow(/Expected `servers` to be an MCP client or a record of them, got 42/);
    await expect(mcpTools({ a: {} as never })).rejects.toThrow(/server "a" to be a connected MCP client/);
    await expect(mcpTools(client, { maxResultChars: 0 })).rejects.toThrow(/`maxResultChars`/);
    await expect(mcpTools(client, { listTimeout: -1 })).rejects.toThrow(/`listTimeout`/);
    await expect(mcpTools(client, { prefix: "a b" })).rejects.toThrow(/`prefix`/);
    await expect(mcpTools(client, { rename: "x" as never })).rejects.toThrow(/`rename`/);
    const listed = fake({ tools: [{ name: "x", inputSchema: { type: "object" } }] });
    await expect(mcpTools(listed, { rename: () => "not ok!" })).rejects.toThrow(/Expected `rename` to return a name/);
  });
});

describe("defaultToolName", () => {
  it("shortens long names to 64 characters with a stable hash, keeping similar names apart", () => {
    const long = "x".repeat(70);
    const a = defaultToolName("srv", `${long}_a`);
    const b = defaultToolName("srv", `${long}_b`);
    expect(a).toHaveLength(64);
    expect(a).not.toBe(b);
    expect(defaultToolName("srv", `${long}_a`)).toBe(a);
    expect(a).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
  });
});
