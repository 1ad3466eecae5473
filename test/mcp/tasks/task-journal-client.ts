// An agent process for tasks-journal.test.ts:
// `tsx task-journal-client.ts v1|v2 <url> file:<path>|<redis:// url> reattach|plain`.
// It runs an agent with a journal whose model calls the task tool `job` once; it prints each task
// id it hears of (`{"taskId"}`), then the tool's answer once the run ends (`{"content"}`).
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { Observable } from "rxjs";
import { type JournalStore, type ModelEvent, type ModelRequest, runAgent } from "../../../src/index.js";
import { mcpJournalReattach, mcpTools } from "../../../src/mcp/index.js";
import { FileJournalStore } from "./file-journal-store.js";

const [line, url, where, mode] = process.argv.slice(2) as [string, string, string, string];
const client = line === "v1" ? new ClientV1({ name: "c", version: "1" }) : new ClientV2({ name: "c", version: "1" });
await client.connect((line === "v1" ? new HttpV1(new URL(url)) : new HttpV2(new URL(url))) as never);
const tools = await mcpTools(client, { tasks: { maxPollInterval: 50 } });

let store: JournalStore;
let redis: { close(): Promise<void> } | undefined;
if (where.startsWith("redis:")) {
  const { RedisJournalStore } = await import("../../../src/bullmq/index.js");
  const r = new RedisJournalStore(where);
  redis = r;
  store = r;
} else store = new FileJournalStore(where.slice(5));

/** Turn 0 calls `job`; turn 1 ends. The same reply every time, as a journal's replay expects none. */
const model = (request: ModelRequest) =>
  new Observable<ModelEvent>((subscriber) => {
    const answered = request.messages.some((m) => m.role === "tool");
    if (answered) subscriber.next({ type: "text_delta", text: "done" });
    else subscriber.next({ type: "tool_call", call: { id: "c1", name: "job", arguments: {} } });
    subscriber.complete();
  });

const result = await runAgent({
  model,
  tools,
  messages: [{ role: "user", content: "run the job" }],
  toolTimeout: Infinity,
  journal: { store, conversationKey: "conv-1", owner: "agent-1", ...(mode === "reattach" ? { reattach: mcpJournalReattach } : {}) },
  onCallReport: (r) => {
    const task = r.type === "progress" ? (r.data as { mcpTask?: { taskId: string } } | undefined)?.mcpTask : undefined;
    if (task !== undefined) process.stdout.write(`${JSON.stringify({ taskId: task.taskId })}\n`);
  },
});
const answer = result.messages.find((m) => m.role === "tool");
process.stdout.write(`${JSON.stringify({ content: answer?.content })}\n`);
await client.close();
await redis?.close();
