// A client process killed mid-task and started again re-attaches to its task over Streamable
// HTTP (the server outlives it): the task is followed, not run again.
import { type ChildProcess, spawn } from "node:child_process";
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { Server as ServerV1 } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineTool, ok } from "../../src/index.js";
import { McpTaskStore, serveTools } from "../../src/mcp/index.js";
import { LINES } from "./servers.js";
import { deferred } from "./task-servers.js";

const fixture = fileURLToPath(new URL("./task-http-client.ts", import.meta.url));
let runs = 0;
let gate = deferred();
const job = defineTool({
  name: "job",
  description: "",
  schema: { type: "object", properties: {} } as const,
  handler: async () => {
    runs++;
    await gate.promise;
    return ok(`finished after ${runs} run(s)`);
  },
});
const store = new McpTaskStore();
let http: HttpServer;
let url: string;

beforeAll(async () => {
  // Stateless Streamable HTTP: a server instance per request, every one over the same task store.
  http = createServer(async (req, res) => {
    const server = new ServerV1({ name: "toolrx", version: "1.0.0" });
    serveTools(server, [job], { tasks: { all: true, required: true, store } });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => void server.close());
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});
afterAll(async () => {
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
});

/** Run the client fixture; resolves with its first line of output once `until` accepts it. */
function client(args: string[], until: (line: string) => boolean): { child: ChildProcess; line: Promise<string> } {
  const child = spawn(process.execPath, ["--import", "tsx", fixture, ...args], { stdio: ["ignore", "pipe", "inherit"] });
  const line = new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const found = out.split("\n").find((l) => l !== "" && until(l));
      if (found !== undefined) resolve(found);
    });
    child.on("exit", (code) => reject(new Error(`client exited with ${code} before answering: ${out}`)));
  });
  return { child, line };
}

describe.each(LINES)("a client process of SDK %s killed mid-task and started again", (line) => {
  it("re-attaches by the task id it reported: one run on the server, its result delivered", async () => {
    runs = 0;
    gate = deferred();
    const first = client([line, url, "start"], (l) => l.includes("taskId"));
    const { taskId } = JSON.parse(await first.line) as { taskId: string };
    first.child.kill("SIGKILL");
    const second = client([line, url, taskId], (l) => l.includes("content"));
    setTimeout(() => gate.resolve(), 500);
    expect(JSON.parse(await second.line)).toEqual({ content: "finished after 1 run(s)" });
    expect(runs).toBe(1);
  }, 90_000);
});
