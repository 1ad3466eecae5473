// A server written against the wire, not an SDK: it answers whatever the test says, so the
// tests can see what each client SDK does with an answer no SDK server would send.
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport as MemoryV1 } from "@modelcontextprotocol/sdk/inMemory.js";
import { Client as ClientV2, InMemoryTransport as MemoryV2 } from "@modelcontextprotocol/client";
import type { SdkLine } from "../support/servers";

interface Message {
  jsonrpc: "2.0";
  id?: string | number;
  method?: string;
  params?: Record<string, unknown>;
}

/** What the raw server answers a request with: a result, or nothing (it never answers). */
export type RawAnswer = { result: unknown } | { error: { code: number; message: string } } | undefined;

/** A client of `line` connected in memory to a server that answers `tools/*` through `answer`. */
export async function rawServer(
  line: SdkLine,
  answer: (method: string, params: Record<string, unknown> | undefined) => RawAnswer | Promise<RawAnswer>,
): Promise<{ client: ClientV1 | ClientV2; notifications: string[]; close(): Promise<void> }> {
  const notifications: string[] = [];
  const [a, b] = line === "v1" ? MemoryV1.createLinkedPair() : MemoryV2.createLinkedPair();
  const server = b as unknown as { onmessage?: (m: Message) => void; send(m: object): Promise<void>; start(): Promise<void>; close(): Promise<void> };
  server.onmessage = (m) => {
    const { id, method } = m;
    if (id === undefined && method !== undefined) notifications.push(method);
    if (id === undefined || method === undefined) return;
    const reply = async (): Promise<RawAnswer> => {
      if (method === "initialize") {
        return {
          result: {
            protocolVersion: (m.params?.protocolVersion as string) ?? "2025-06-18",
            capabilities: { tools: {} },
            serverInfo: { name: "raw", version: "1.0.0" },
          },
        };
      }
      if (method === "ping") return { result: {} };
      return answer(method, m.params);
    };
    void reply().then((r) => {
      if (r !== undefined) void server.send({ jsonrpc: "2.0", id, ...r });
    });
  };
  await server.start();
  const client = line === "v1" ? new ClientV1({ name: "raw-test", version: "1.0.0" }) : new ClientV2({ name: "raw-test", version: "1.0.0" });
  await client.connect(a as never);
  return {
    client,
    notifications,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}
