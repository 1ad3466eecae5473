// What the restart tests share: a task server over Streamable HTTP that outlives the processes
// they kill, whose one tool counts its runs and finishes when the test opens its gate, and the
// fixture processes themselves, read line by line.
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Server as ServerV1 } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { defineTool, ok } from "../../../src/index.js";
import { McpTaskStore, serveTools } from "../../../src/mcp/index.js";
import { deferred } from "./task-servers.js";

/** A server whose tool `job` runs as a required task, counts its runs and waits for {@link GatedJobServer.open}. */
export interface GatedJobServer {
  /** The Streamable HTTP endpoint. */
  readonly url: string;
  /** How many times `job` started since the last `reset()`. */
  readonly runs: number;
  /** A new test: no runs counted, the gate closed again. */
  reset(): void;
  /** Let every run of `job`, waiting or to come, finish with `finished after <runs> run(s)`. */
  open(): void;
  /** Open the gate (no run is left hanging), then close the server and its connections. */
  close(): Promise<void>;
}

/** Start a {@link GatedJobServer} on a free port of 127.0.0.1. */
export async function startGatedJobServer(): Promise<GatedJobServer> {
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
  // Stateless Streamable HTTP: a server instance per request, every one over the same task store.
  const http = createServer(async (req, res) => {
    const server = new ServerV1({ name: "toolrx", version: "1.0.0" });
    serveTools(server, [job], { tasks: { all: true, required: true, store } });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => void server.close());
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    get runs() {
      return runs;
    },
    reset() {
      runs = 0;
      gate = deferred();
    },
    open: () => gate.resolve(),
    async close() {
      gate.resolve();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

/** Run `fixture` under tsx; `line` resolves with its first line of output that `until` accepts, and rejects if it exits first. */
export function spawnFixture(fixture: string, args: string[], until: (line: string) => boolean): { child: ChildProcess; line: Promise<string> } {
  const child = spawn(process.execPath, ["--import", "tsx", fixture, ...args], { stdio: ["ignore", "pipe", "inherit"] });
  const line = new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const found = out.split("\n").find((l) => l !== "" && until(l));
      if (found !== undefined) resolve(found);
    });
    child.on("exit", (code, signal) => reject(new Error(`${fixture} exited (${code ?? signal}) before answering: ${out}`)));
  });
  return { child, line };
}
