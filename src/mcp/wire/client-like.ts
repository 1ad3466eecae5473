/**
 * What toolrx needs from a connected MCP client, written structurally so that a `Client` from
 * `@modelcontextprotocol/sdk` 1.x and one from `@modelcontextprotocol/client` 2.x both fit
 * without toolrx importing either SDK at runtime.
 */
export interface McpClientLike {
  /** One page of the server's tools; v2 walks every page itself when no cursor is given. */
  listTools(params?: { cursor?: string }, options?: McpRequestOptions): Promise<unknown>;
  /** v1: `(params, resultSchema?, options?)`; v2: `(params, options?)`. A 2.x client is told apart by its `getProtocolEra` method. */
  callTool(params: McpCallParams, ...rest: never[]): Promise<unknown>;
  /**
   * Any request, `(request, resultSchema, options?)` on both lines: how toolrx sends the task
   * methods (`tasks/get`, `tasks/result`, `tasks/cancel`), which neither line's `callTool` covers.
   */
  request?(...args: never[]): Promise<unknown>;
  /** How toolrx answers a server's `elicitation/create` (only with `McpToolsOptions.elicitation`). */
  setRequestHandler?(...args: never[]): void;
}

/** The request options toolrx passes to the SDK; both lines accept these keys. */
export interface McpRequestOptions {
  signal?: AbortSignal;
  timeout?: number;
  onprogress?: (progress: McpProgress) => void;
  resetTimeoutOnProgress?: boolean;
  /** v2 only: hand an `input_required` result back instead of fulfilling it. */
  allowInputRequired?: boolean;
  /** v2 only: always ask the server, never a cached listing. */
  cacheMode?: "refresh";
}

/** The `tools/call` request parameters. */
export interface McpCallParams {
  name: string;
  arguments?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A progress notification's payload, as both SDK lines hand it to `onprogress`. */
export interface McpProgress {
  progress: number;
  total?: number;
  message?: string;
}

/**
 * The largest delay a JavaScript timer accepts. The SDKs' own request timeout (60 s by default)
 * is set to this so that toolrx's deadline is the one that fires, and a timeout is told apart
 * from a cancel by toolrx rather than by an SDK error code both lines share.
 */
export const SDK_TIMEOUT_OFF = 2_147_483_647;

/** Whether `client` is a 2.x client, whose `callTool` takes the options second. */
export function isV2Client(client: McpClientLike): boolean {
  return typeof (client as { getProtocolEra?: unknown }).getProtocolEra === "function";
}

/**
 * A function that calls a tool on `client`, whichever SDK line it is from. The line is looked
 * up once here rather than on every call.
 */
export function toolCaller(client: McpClientLike): (params: McpCallParams, options: McpRequestOptions) => Promise<unknown> {
  const call = client.callTool as (...args: unknown[]) => Promise<unknown>;
  if (isV2Client(client)) {
    return (params, options) => {
      options.allowInputRequired = true;
      return call.call(client, params, options);
    };
  }
  return (params, options) => call.call(client, params, undefined, options);
}

/** Whether `client` has the two methods toolrx calls. */
export function isMcpClient(value: unknown): value is McpClientLike {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as McpClientLike).listTools === "function" &&
    typeof (value as McpClientLike).callTool === "function"
  );
}

/**
 * Whether the connection to the server is gone (closed, never opened, or a send that failed), as
 * opposed to an error the server answered with. Told by state and codes, never by an error's
 * wording: 2.x gives a connection failure its own code; an SDK client of either line drops its
 * transport when the connection closes, before it fails the calls still waiting.
 */
export function isConnectionLost(e: unknown, client: McpClientLike): boolean {
  const code = typeof e === "object" && e !== null ? (e as { code?: unknown }).code : undefined;
  if (code === "CONNECTION_CLOSED" || code === "NOT_CONNECTED" || code === "SEND_FAILED") return true;
  return "transport" in client && (client as { transport?: unknown }).transport === undefined;
}
