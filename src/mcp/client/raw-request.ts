import type { McpClientLike, McpProgress } from "../wire/index.js";
import { isPlainRecord } from "../../util/safe.js";

/** The part of an SDK transport toolrx uses to send a request the SDK's codec would refuse. */
interface RawTransport {
  send(message: Record<string, unknown>, options?: { requestSignal?: AbortSignal }): Promise<void>;
  onmessage?: (message: unknown, extra?: unknown) => void;
  onclose?: () => void;
  hasPerRequestStream?: boolean;
}

interface Waiter {
  settle(message: Record<string, unknown> | Error): void;
  onprogress: ((p: McpProgress) => void) | undefined;
}

/** The requests of each transport awaiting an answer, by their ids; the hook is installed once. */
const hooked = new WeakMap<RawTransport, Map<string, Waiter>>();
let ids = 0;

/** An error whose code `isConnectionLost` reads as the connection gone. */
const closed = () => Object.assign(new Error("MCP connection closed"), { code: "CONNECTION_CLOSED" });

function waitersOf(transport: RawTransport): Map<string, Waiter> {
  let waiters = hooked.get(transport);
  if (waiters !== undefined) return waiters;
  const mine = new Map<string, Waiter>();
  waiters = mine;
  hooked.set(transport, mine);
  const onmessage = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if (isPlainRecord(message)) {
      const waiter = typeof message.id === "string" && message.method === undefined ? mine.get(message.id) : undefined;
      if (waiter !== undefined) {
        mine.delete(message.id as string);
        waiter.settle(message);
        return;
      }
      const params = message.method === "notifications/progress" && isPlainRecord(message.params) ? message.params : undefined;
      const listener = typeof params?.progressToken === "string" ? mine.get(params.progressToken) : undefined;
      if (listener !== undefined) {
        listener.onprogress?.(params as unknown as McpProgress);
        return;
      }
    }
    onmessage?.call(transport, message, extra);
  };
  const onclose = transport.onclose;
  transport.onclose = () => {
    for (const waiter of mine.values()) waiter.settle(closed());
    mine.clear();
    onclose?.call(transport);
  };
  return mine;
}

/**
 * Send one JSON-RPC request over `client`'s transport and give back the server's raw `result`,
 * read by toolrx rather than by the SDK: a 2.x client refuses a `resultType` its codec does not
 * know (`"task"`, which the tasks extension adds to `tools/call`) and keeps no copy of it. `meta`
 * is the request's whole `_meta` envelope. The request's id is a string of toolrx's, so it never
 * meets the SDK's numeric ids; an abort sends `notifications/cancelled` (or, on a transport with
 * a stream per request, closes it). A JSON-RPC error answer rejects with its `code`, `message`
 * and `data`, as the SDK's errors carry them.
 */
export function rawRequest(
  client: McpClientLike,
  method: string,
  params: Record<string, unknown>,
  options: { signal: AbortSignal; meta: Record<string, unknown>; onprogress?: (p: McpProgress) => void },
): Promise<Record<string, unknown>> {
  const transport = (client as { transport?: RawTransport }).transport;
  if (transport === undefined) return Promise.reject(closed());
  const waiters = waitersOf(transport);
  const id = `toolrx-${++ids}`;
  const { signal, meta, onprogress } = options;
  const _meta = onprogress === undefined ? meta : { ...meta, progressToken: id };
  return new Promise<Record<string, unknown>>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const requestSignal = new AbortController();
    const onAbort = () => {
      waiters.delete(id);
      requestSignal.abort();
      if (transport.hasPerRequestStream !== true) {
        const cancel = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: String(signal.reason), _meta: meta } };
        transport.send(cancel).catch(() => {});
      }
      reject(signal.reason);
    };
    waiters.set(id, {
      onprogress,
      settle: (message) => {
        signal.removeEventListener("abort", onAbort);
        if (message instanceof Error) reject(message);
        else if (isPlainRecord(message.error)) {
          const { code, message: text, data } = message.error;
          reject(Object.assign(new Error(typeof text === "string" ? text : "MCP error"), { code, data }));
        } else resolve(isPlainRecord(message.result) ? message.result : {});
      },
    });
    signal.addEventListener("abort", onAbort, { once: true });
    // The params' own `_meta` (a trace context) is kept beside the envelope.
    const own = isPlainRecord(params._meta) ? params._meta : undefined;
    transport
      .send(
        { jsonrpc: "2.0", id, method, params: { ...params, _meta: own === undefined ? _meta : { ...own, ..._meta } } },
        { requestSignal: requestSignal.signal },
      )
      .catch((e: unknown) => {
        waiters.delete(id);
        signal.removeEventListener("abort", onAbort);
        reject(Object.assign(e instanceof Error ? e : new Error(String(e)), { code: "SEND_FAILED" }));
      });
  });
}
