import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import {
  CallToolResultSchema,
  JSONRPCErrorResponseSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  JSONRPCResultResponseSchema,
  LATEST_PROTOCOL_VERSION,
  ListToolsResultSchema,
  ServerNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ok } from "../../../src/index.js";
import { serveTools } from "../../../src/mcp/index.js";
import { huntRuns } from "../../support/hunt-runs.js";

/**
 * A client that sends whatever it likes, straight onto the transport: `tools/call` with names,
 * arguments and `_meta` (progress tokens, W3C trace context) of any shape, cancellations of any
 * id, `tools/list` with any cursor, unknown methods and messages that are not JSON-RPC at all.
 * The SDK's own schemas judge every message the server sends back, not toolrx's code.
 */
const echo = defineTool({
  name: "echo",
  description: "Echoes its text, reporting progress first",
  schema: z.object({ text: z.string() }),
  handler: ({ text }, ctx) => {
    ctx.progress({ progress: 1, total: 1 });
    return ok(text);
  },
});
const slow = defineTool({
  name: "slow",
  description: "Answers after a few ms, or when cancelled",
  schema: z.object({ ms: z.number().int().min(0).max(30) }),
  handler: ({ ms }, ctx) =>
    new Promise((resolve) => {
      const timer = setTimeout(() => resolve(ok(ms)), ms);
      ctx.signal.addEventListener("abort", () => {
        clearTimeout(timer);
        resolve(ok("cancelled"));
      });
    }),
});
const raises = defineTool({
  name: "raises",
  description: "Throws",
  schema: z.object({}).passthrough(),
  handler: () => {
    throw new Error("boom");
  },
});

const odd = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom("__proto__", "constructor", "x".repeat(100_000), "\u0000", "\ud800"),
  fc.constant({ __proto__: { polluted: true } }),
);
const meta = fc.option(
  fc.record(
    {
      progressToken: fc.oneof(fc.string(), fc.integer(), fc.double(), odd),
      traceparent: fc.oneof(fc.string(), fc.constant("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"), odd),
      tracestate: fc.oneof(fc.string(), odd),
    },
    { requiredKeys: [] },
  ),
  { nil: undefined },
);
type Step =
  | { kind: "call"; name: unknown; args: unknown; meta: unknown }
  | { kind: "cancel"; back: number; raw: unknown }
  | { kind: "list"; cursor: unknown }
  | { kind: "method"; method: string; params: unknown }
  | { kind: "garbage"; message: unknown };
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("call" as const),
      name: fc.oneof(fc.constantFrom("echo", "slow", "raises", "missing", "", "__proto__"), odd),
      args: fc.oneof(
        fc.record({ text: fc.oneof(fc.string(), odd) }),
        fc.record({ ms: fc.oneof(fc.integer({ min: 0, max: 30 }), odd) }),
        odd,
        fc.constant(undefined),
      ),
      meta,
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("cancel" as const), back: fc.nat(4), raw: odd }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("list" as const), cursor: fc.option(odd, { nil: undefined }) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("method" as const),
      method: fc.constantFrom("ping", "tasks/get", "tasks/result", "resources/list", "completion/complete", "no/such", "notifications/initialized"),
      params: fc.option(odd, { nil: undefined }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("garbage" as const),
      message: fc.oneof(
        odd,
        fc.record({ jsonrpc: fc.constantFrom("1.0", "2.0"), id: odd, method: odd }),
        fc.record({ jsonrpc: fc.constant("2.0"), id: fc.integer({ min: 1_000_000 }), result: odd }),
      ),
    }),
  },
);

/** The server's messages, judged by the SDK's schemas: a response's id, or what is wrong with the message. */
function judge(message: unknown, methodOf: ReadonlyMap<unknown, string>, tokens: ReadonlySet<unknown>): string | undefined {
  if (JSONRPCErrorResponseSchema.safeParse(message).success) return undefined;
  const response = JSONRPCResultResponseSchema.safeParse(message);
  if (response.success) {
    const method = methodOf.get(response.data.id);
    if (method === undefined) return `a response to an id the client never used: ${JSON.stringify(response.data.id)}`;
    const schema = method === "tools/call" ? CallToolResultSchema : method === "tools/list" ? ListToolsResultSchema : undefined;
    const result = schema?.safeParse(response.data.result);
    return result === undefined || result.success ? undefined : `a ${method} result the SDK rejects: ${result.error.message.slice(0, 300)}`;
  }
  const notification = JSONRPCNotificationSchema.safeParse(message);
  if (!notification.success) return `not JSON-RPC: ${JSON.stringify(message).slice(0, 300)}`;
  const known = ServerNotificationSchema.safeParse({ method: notification.data.method, params: notification.data.params });
  if (!known.success) return `a notification the SDK rejects: ${known.error.message.slice(0, 300)}`;
  // MCP: progress notifications MUST only reference tokens provided in an active request.
  if (known.data.method === "notifications/progress" && !tokens.has(known.data.params.progressToken))
    return `progress for a token the client never gave: ${JSON.stringify(known.data.params.progressToken)}`;
  return undefined;
}

describe("serveTools against a hostile client (property)", () => {
  const crashes: unknown[] = [];
  const onCrash = (e: unknown): void => void crashes.push(e);
  beforeAll(() => {
    process.on("uncaughtException", onCrash);
    process.on("unhandledRejection", onCrash);
  });
  afterAll(() => {
    process.off("uncaughtException", onCrash);
    process.off("unhandledRejection", onCrash);
  });

  it("answers every request once with what the SDK's schemas accept, sends nothing else they reject, and keeps serving", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        const server = new Server({ name: "toolrx", version: "1.0.0" });
        serveTools(server, [echo, slow, raises]);
        const [client, end] = InMemoryTransport.createLinkedPair();
        const heard: unknown[] = [];
        client.onmessage = (m) => void heard.push(m);
        await server.connect(end);
        await client.start();
        const send = (m: unknown): Promise<void> => client.send(m as JSONRPCMessage);
        const methodOf = new Map<unknown, string>();
        const tokens = new Set<unknown>();
        const cancelled = new Set<number>();
        // Requests the SDK's own schema does not take as one (a progress token that is neither a string nor a number): at most one answer.
        const malformed = new Set<number>();
        let next = 1;
        const request = async (method: string, params: unknown): Promise<number> => {
          const id = next++;
          methodOf.set(id, method);
          const message = { jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) };
          if (!JSONRPCRequestSchema.safeParse(message).success) malformed.add(id);
          await send(message);
          return id;
        };
        try {
          await request("initialize", { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "hostile", version: "0" } });
          await send({ jsonrpc: "2.0", method: "notifications/initialized" });
          for (const s of steps) {
            if (s.kind === "call") {
              const m = s.meta as { progressToken?: unknown } | undefined;
              if (m !== undefined && "progressToken" in m) tokens.add(m.progressToken);
              await request("tools/call", { name: s.name, ...(s.args === undefined ? {} : { arguments: s.args }), ...(m === undefined ? {} : { _meta: m }) });
            } else if (s.kind === "cancel") {
              const id = Math.max(1, next - 1 - s.back);
              cancelled.add(id);
              await send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: s.back === 4 ? s.raw : id, reason: "hostile" } });
            } else if (s.kind === "list") await request("tools/list", s.cursor === undefined ? undefined : { cursor: s.cursor });
            else if (s.kind === "method") {
              if (s.method.startsWith("notifications/"))
                await send({ jsonrpc: "2.0", method: s.method, ...(s.params === undefined ? {} : { params: s.params }) });
              else await request(s.method, s.params);
            } else await send(s.message);
          }
          // The host still serves: a clean call after everything else is answered, and answered right.
          const last = await request("tools/call", { name: "echo", arguments: { text: "still here" } });
          const answered = (id: number) => heard.filter((m) => (m as { id?: unknown }).id === id);
          for (let waited = 0; answered(last).length === 0 && waited < 5_000; waited += 10) await new Promise((r) => setTimeout(r, 10));
          // The slow tool answers within 30 ms: give the calls before the last that long to answer.
          await new Promise((r) => setTimeout(r, 50));
          expect(answered(last)).toEqual(
            [{ jsonrpc: "2.0", id: last, result: { content: [{ type: "text", text: "still here" }], structuredContent: undefined, isError: false } }].map(
              strip,
            ),
          );
          for (const id of methodOf.keys()) {
            // A cancelled request SHOULD get no answer (MCP); any other, exactly one.
            const n = answered(id as number).length;
            if (cancelled.has(id as number) || malformed.has(id as number)) expect(n, `request ${id}`).toBeLessThanOrEqual(1);
            else expect(n, `request ${id} (${methodOf.get(id)})`).toBe(1);
          }
          expect(heard.map((m) => judge(m, methodOf, tokens)).filter((p) => p !== undefined)).toEqual([]);
          expect(crashes).toEqual([]);
        } finally {
          await client.close();
          await server.close();
        }
      }),
      { numRuns: huntRuns(15, 60) },
    );
  }, 120_000);
});

/** The answer as JSON carries it: a key whose value is undefined is not there. */
function strip<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
