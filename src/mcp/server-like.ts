import { z } from "zod";

/**
 * What toolrx needs from a low-level MCP `Server`, structurally: `Server` from
 * `@modelcontextprotocol/sdk/server/index.js` (1.x) or from `@modelcontextprotocol/server`
 * (2.x). With the high-level `McpServer`, pass its `.server`.
 */
export interface McpServerLike {
  setRequestHandler(method: never, handler: never): void;
  registerCapabilities?(capabilities: { tools?: object }): void;
}

/** A `tools/list` or `tools/call` request as the handler sees it. */
export interface McpRequest {
  params?: { name?: unknown; arguments?: unknown; cursor?: unknown; _meta?: { progressToken?: string | number } };
}

/** What a request handler may use of the SDK's per-request context. */
export interface McpRequestContext {
  signal: AbortSignal;
  notify(notification: { method: string; params: Record<string, unknown> }): Promise<void>;
}

type Handler = (request: McpRequest, ctx: McpRequestContext) => Promise<Record<string, unknown>>;

/**
 * Register `handler` for `method` on a server of either line: 2.x takes the method name, 1.x a
 * zod schema whose `method` is that literal (zod is already toolrx's peer). The two lines hand
 * handlers different contexts; both become an {@link McpRequestContext}.
 */
export function setRequestHandler(server: McpServerLike, method: "tools/list" | "tools/call", handler: Handler): void {
  const register = server.setRequestHandler as (a: unknown, b: unknown) => void;
  try {
    register.call(server, method, (request: McpRequest, ctx: { mcpReq: { signal: AbortSignal; notify: McpRequestContext["notify"] } }) =>
      handler(request, { signal: ctx.mcpReq.signal, notify: (n) => ctx.mcpReq.notify(n) }),
    );
    return;
  } catch (e) {
    // 1.x refuses a method name: it wants a schema.
    if (!(e instanceof Error) || !/method literal|schema/i.test(e.message)) throw e;
  }
  const schema = z.looseObject({ method: z.literal(method), params: z.optional(z.looseObject({})) });
  register.call(server, schema, (request: McpRequest, extra: { signal: AbortSignal; sendNotification: McpRequestContext["notify"] }) =>
    handler(request, { signal: extra.signal, notify: (n) => extra.sendNotification(n) }),
  );
}
