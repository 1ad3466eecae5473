import { z } from "zod";
import { isV2Client, type McpClientLike, type McpRequestOptions, SDK_TIMEOUT_OFF } from "./client-like.js";
import { isPlainRecord } from "../../util/safe.js";

/** Any JSON object: toolrx reads task answers itself rather than trust either SDK's task types. */
const ANY_RESULT = z.looseObject({});

/** Sends one request of `method` and gives back the server's answer, an object. */
export type McpRequester = (method: string, params: Record<string, unknown>, options: McpRequestOptions) => Promise<Record<string, unknown>>;

/**
 * A function that sends any request to `client`'s server, or `undefined` when the client has no
 * `request` method. Both SDK lines take `(request, resultSchema, options)`; the SDKs' own request
 * timeout is set out of the way, as for `tools/call`, so toolrx's deadlines decide.
 */
export function requester(client: McpClientLike): McpRequester | undefined {
  const request = client.request as ((...args: unknown[]) => Promise<unknown>) | undefined;
  if (typeof request !== "function") return undefined;
  return async (method, params, options) => {
    // Each request gets its own signal, tied to the call's only while it is pending: an SDK that
    // leaves its abort listener on the signal must not pile one up per poll on the call's.
    const { signal } = options;
    const own = new AbortController();
    const onAbort = () => own.abort(signal?.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    if (signal?.aborted) onAbort();
    try {
      const answer = await request.call(client, { method, params }, ANY_RESULT, { timeout: SDK_TIMEOUT_OFF, ...options, signal: own.signal });
      return isPlainRecord(answer) ? answer : {};
    } finally {
      signal?.removeEventListener("abort", onAbort);
    }
  };
}

/**
 * Whether the server said it takes `tools/call` as a task (2025-11-25: `capabilities.tasks.requests.tools.call`).
 * The spec forbids asking for a task without it.
 */
export function serverTakesToolTasks(client: McpClientLike): boolean {
  const capabilities = (client as { getServerCapabilities?: () => unknown }).getServerCapabilities?.();
  if (!isPlainRecord(capabilities) || !isPlainRecord(capabilities.tasks)) return false;
  const { requests } = capabilities.tasks;
  return isPlainRecord(requests) && isPlainRecord(requests.tools) && requests.tools.call !== undefined;
}

/**
 * Register `handler` for `method` on a client of either line: 2.x takes the method name, 1.x a
 * zod schema whose `method` is that literal.
 */
export function setClientRequestHandler(client: McpClientLike, method: string, handler: (request: unknown, extra: unknown) => Promise<unknown>): void {
  const register = client.setRequestHandler as ((a: unknown, b: unknown) => void) | undefined;
  if (typeof register !== "function") throw new TypeError("Expected the MCP client to have setRequestHandler");
  if (isV2Client(client)) {
    register.call(client, method, handler);
    return;
  }
  register.call(client, z.looseObject({ method: z.literal(method), params: z.optional(z.looseObject({})) }), handler);
}
