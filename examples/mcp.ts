/**
 * The agent loop against a real MCP server: examples/mcp-server.ts runs as a child process and
 * speaks MCP over stdio; its tools come in through `mcpTools` and run under toolrx's deadlines,
 * validation and policy. The model is scripted (no API key, no network):
 *
 *   turn 0  the model asks for two forecasts at once: Oslo (found) and Atlantis (the server
 *           answers isError: the model is told, the run goes on)
 *   turn 1  it asks the server what to pack for Oslo's weather
 *   turn 2  it answers; the loop ends with `completed`
 *
 * Run: npm run example:mcp
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { fileURLToPath } from "node:url";
import { streamAgent, type AgentEvent, type AgentResult, type ModelEvent } from "../src/index.js";
import { mcpTools } from "../src/mcp/index.js";
import { scriptedModel } from "../src/testing/index.js";

const t0 = performance.now();
const log = (line: string) => console.log(`[${String(Math.round(performance.now() - t0)).padStart(4)} ms] ${line}`);

// ── The MCP server, in a child process ───────────────────────────────────────────────────

const serverScript = fileURLToPath(new URL("./mcp-server.ts", import.meta.url));
const client = new Client({ name: "toolrx-example", version: "1.0.0" });
await client.connect(new StdioClientTransport({ command: process.execPath, args: ["--import", "tsx", serverScript], stderr: "inherit" }));
const tools = await mcpTools({ weather: client }, { maxResultChars: 4_000 });
log(`connected; the server offers ${tools.map((t) => t.name).join(", ")}`);

// ── A scripted model ─────────────────────────────────────────────────────────────────────

const say = (text: string): ModelEvent => ({ type: "text_delta", text });
const call = (id: string, name: string, args: Record<string, unknown>): ModelEvent => ({ type: "tool_call", call: { id, name, arguments: args } });
const model = scriptedModel(
  [
    [
      say("Checking the forecast for both cities. "),
      call("call_1", "weather__forecast", { city: "Oslo" }),
      call("call_2", "weather__forecast", { city: "Atlantis" }),
      { type: "finish", reason: "tool_calls" },
    ],
    [
      say("No forecast for Atlantis. Oslo will be 4 °C and rainy; asking what to pack. "),
      call("call_3", "weather__packing_list", { sky: "rain", tempC: 4 }),
      { type: "finish", reason: "tool_calls" },
    ],
    [say("Pack a warm coat and an umbrella for Oslo."), { type: "finish", reason: "stop" }],
  ],
  { delay: 40 },
);

// ── The loop, shown live ─────────────────────────────────────────────────────────────────

function show(e: AgentEvent): void {
  switch (e.type) {
    case "turn_started":
      log(`turn ${e.turn}`);
      return;
    case "text_delta":
      log(`  model: ${JSON.stringify(e.text)}`);
      return;
    case "tool_event": {
      const t = e.event;
      if (t.type === "tool_execution_started") log(`  ⚙ ${t.toolName} started ${JSON.stringify(t.arguments)}`);
      if (t.type === "tool_result_encoded") log(`  ⚙ ${t.toolName} ${t.isError ? "error " : "result"} ${t.content}`);
      return;
    }
    case "turn_completed":
      return;
    case "agent_halted":
      log(`halted: ${e.haltedReason} ${JSON.stringify(e.metadata)}`);
      return;
  }
}

try {
  const result = await new Promise<AgentResult>((resolve, reject) => {
    streamAgent({
      model,
      tools,
      messages: [{ role: "user", content: "I'm going to Oslo or Atlantis tomorrow. What should I pack?" }],
      toolTimeout: 5_000,
    }).subscribe({
      next: (e) => {
        show(e);
        if (e.type === "agent_halted") resolve(e);
      },
      error: reject,
    });
  });
  console.log(`\nThe conversation (${result.messages.length} messages):`);
  for (const m of result.messages) console.log(`  ${m.role.padEnd(9)} ${"content" in m ? m.content : ""}`);
  if (result.haltedReason !== "completed") process.exitCode = 1;
} finally {
  await client.close(); // ends the child process
}
