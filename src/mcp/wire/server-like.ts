import { z } from "zod";

/**
 * What toolrx needs from a low-level MCP `Server`, structurally: `Server` from
 * `@modelcontextprotocol/sdk/server/index.js` (1.x) or from `@modelcontextprotocol/server`
 * (2.x). With the high-level `McpServer`, pass its `.server`.
 */
export interface McpServerLike {
  setRequestHandler(method: never, handler: never): void;
  registerCapabilities?(capabilities: { tools?: object; tasks?: object; extensions?: object; logging?: object }): void;
  /** What the client declared at `initialize` (both lines; 2.x per request on revision 2026-07-28). */
  getClientCapabilities?(): unknown;
}

/** Whether `server` is a 2.x server (it has `projectCallToolResult`, which 1.x does not), the line that speaks revision 2026-07-28. */
export function isV2Server(server: McpServerLike): boolean {
  return typeof (server as { projectCallToolResult?: unknown }).projectCallToolResult === "function";
}

/** A `tools/list` or `tools/call` request as the handler sees it. */
export interface McpRequest {
  params?: {
    name?: unknown;
    arguments?: unknown;
    cursor?: unknown;
    taskId?: unknown;
    task?: unknown;
    level?: unknown;
    _meta?: { progressToken?: string | number; [key: string]: unknown };
  };
}

/** What a request handler may use of the SDK's per-request context. */
export interface McpRequestContext {
  signal: AbortSignal;
  notify(notification: { method: string; params: Record<string, unknown> }): Promise<void>;
  /**
   * Whether the request is served on revision 2026-07-28, which has no server-to-client
   * requests: input is asked for with an `input_required` result, answered in a retried request.
   */
  readonly inputRequired: boolean;
  /** The client's capabilities as they apply to this request. */
  clientCapabilities(): unknown;
  /** The answers a retried request carries (revision 2026-07-28), keyed as the server asked. */
  readonly inputResponses: Record<string, unknown> | undefined;
  /** Ask the client's user with `elicitation/create`, as a request related to this one (before 2026-07-28). */
  elicit(params: Record<string, unknown>, options: { signal: AbortSignal; timeout: number }): Promise<unknown>;
  /** Ask the client's model with `sampling/createMessage`, as a request related to this one (before 2026-07-28). */
  sample(params: Record<string, unknown>, options: { signal: AbortSignal; timeout: number }): Promise<unknown>;
}

/** The client capabilities a 2026-07-28 request carries in its `_meta` envelope. */
const CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";

/** What 1.x checks an elicitation answer against; a loose shape, since toolrx reads it itself. */
const ELICIT_RESULT = z.looseObject({ action: z.string() });

/** What 1.x checks a sampling answer against; loose too: the runner reads the reply. */
const SAMPLE_RESULT = z.looseObject({});

/** Any params object: the handlers read their params themselves. */
const PARAMS = z.looseObject({});

interface V2Context {
  mcpReq: {
    signal: AbortSignal;
    notify: McpRequestContext["notify"];
    envelope?: Record<string, unknown>;
    inputResponses?: Record<string, unknown>;
    send(request: { method: string; params: Record<string, unknown> }, options: { signal: AbortSignal; timeout: number }): Promise<unknown>;
  };
}

interface V1Extra {
  signal: AbortSignal;
  sendNotification: McpRequestContext["notify"];
  sendRequest(
    request: { method: string; params: Record<string, unknown> },
    schema: unknown,
    options: { signal: AbortSignal; timeout: number },
  ): Promise<unknown>;
}

type Handler = (request: McpRequest, ctx: McpRequestContext) => Promise<Record<string, unknown>>;

/**
 * Register `handler` for `method` on a server of either line: 2.x takes the method name, 1.x a
 * zod schema whose `method` is that literal (zod is already toolrx's peer). The two lines hand
 * handlers different contexts; both become an {@link McpRequestContext}.
 */
export function setRequestHandler(
  server: McpServerLike,
  method: "tools/list" | "tools/call" | "tasks/get" | "tasks/result" | "tasks/cancel" | "tasks/update" | "logging/setLevel",
  handler: Handler,
): void {
  const register = server.setRequestHandler as (a: unknown, b: unknown, c?: unknown) => void;
  const declared = () => server.getClientCapabilities?.();
  // 2.x serves `tasks/get` and `tasks/cancel` on revision 2026-07-28 (where the tasks extension
  // defines them again) only when registered with a params schema, and `tasks/update` only so.
  const extension = method === "tasks/get" || method === "tasks/cancel" || method === "tasks/update";
  try {
    const v2 = (request: McpRequest, ctx: V2Context) => {
      const { mcpReq } = ctx;
      // Only a 2026-07-28 request carries the envelope, and with it the client's capabilities.
      const modern = mcpReq.envelope !== undefined;
      return handler(request, {
        signal: mcpReq.signal,
        notify: (n) => mcpReq.notify(n),
        inputRequired: modern,
        clientCapabilities: () => (modern ? mcpReq.envelope?.[CLIENT_CAPABILITIES] : declared()),
        inputResponses: mcpReq.inputResponses,
        elicit: (params, options) => mcpReq.send({ method: "elicitation/create", params }, options),
        sample: (params, options) => mcpReq.send({ method: "sampling/createMessage", params }, options),
      });
    };
    if (extension) register.call(server, method, { params: PARAMS }, (params: McpRequest["params"], ctx: V2Context) => v2({ params }, ctx));
    else register.call(server, method, v2);
    return;
  } catch (e) {
    // 1.x refuses a method name: it wants a schema.
    if (!(e instanceof Error) || !/method literal|schema/i.test(e.message)) throw e;
  }
  const schema = z.looseObject({ method: z.literal(method), params: z.optional(z.looseObject({})) });
  register.call(server, schema, (request: McpRequest, extra: V1Extra) =>
    handler(request, {
      signal: extra.signal,
      notify: (n) => extra.sendNotification(n),
      inputRequired: false,
      clientCapabilities: declared,
      inputResponses: undefined,
      elicit: (params, options) => extra.sendRequest({ method: "elicitation/create", params }, ELICIT_RESULT, options),
      sample: (params, options) => extra.sendRequest({ method: "sampling/createMessage", params }, SAMPLE_RESULT, options),
    }),
  );
}
