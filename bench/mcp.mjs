/**
 * What toolrx adds to an MCP tool call: the same call to an in-memory MCP server, through
 * toolrx (`mcpTools` + `runToolCalls`: argument validation, deadline, cancellation, progress,
 * result mapping, the tool message) and through the SDK's `client.callTool` alone, both bare and
 * with what toolrx passes it (a per-call AbortSignal and a progress callback: the cancellation
 * and progress peers' adapters were faulted for leaving out). CPU time (user + system,
 * process.cpuUsage) per call, in paired rounds within one process, rotating which side runs
 * first; the server's own work is in every figure, as it is in real use. Both SDK lines.
 *
 *   npm run build && node bench/mcp.mjs [--rounds 30] [--calls 400] [--quick]
 *
 * Target (mcp-overhead): toolrx's own work at most 2 µs per call on top of the SDK's cancellable
 * call with progress, measured over a client stub that answers at once (the SDK's own cost,
 * tens of µs, would drown 2 µs in its noise); the difference over the real SDK is shown too.
 */
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport as MemoryV1 } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server as ServerV1 } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client as ClientV2, InMemoryTransport as MemoryV2 } from "@modelcontextprotocol/client";
import { Server as ServerV2 } from "@modelcontextprotocol/server";
import { runToolCalls } from "../dist/index.js";
import { mcpTools } from "../dist/mcp/index.js";
import { reportTargets } from "./lib/report-targets.mjs";

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const QUICK = process.argv.includes("--quick");
const ROUNDS = arg("rounds", QUICK ? 8 : 30);
const CALLS = arg("calls", QUICK ? 200 : 400);
const TARGET = 1.05;

const addTool = {
  name: "add",
  description: "Add two numbers",
  inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
};
const answer = (args) => ({ content: [{ type: "text", text: String(args.a + args.b) }] });

async function connectV1() {
  const server = new ServerV1({ name: "bench", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [addTool] }));
  server.setRequestHandler(CallToolRequestSchema, (req) => answer(req.params.arguments));
  const [a, b] = MemoryV1.createLinkedPair();
  await server.connect(b);
  const client = new ClientV1({ name: "bench", version: "1.0.0" });
  await client.connect(a);
  return {
    client,
    sdkCall: (args) => client.callTool({ name: "add", arguments: args }),
    sdkCallWired: (args) => client.callTool({ name: "add", arguments: args }, undefined, wired()),
    close: () => client.close(),
  };
}

/** The options toolrx passes: the call's own signal, progress requested, the SDK timeout off. */
const wired = () => ({ signal: new AbortController().signal, timeout: 2_147_483_647, onprogress: () => {}, resetTimeoutOnProgress: true });

async function connectV2() {
  const server = new ServerV2({ name: "bench", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler("tools/list", () => ({ tools: [addTool] }));
  server.setRequestHandler("tools/call", (req) => answer(req.params.arguments));
  const [a, b] = MemoryV2.createLinkedPair();
  await server.connect(b);
  const client = new ClientV2({ name: "bench", version: "1.0.0" });
  await client.connect(a);
  return {
    client,
    sdkCall: (args) => client.callTool({ name: "add", arguments: args }),
    sdkCallWired: (args) => client.callTool({ name: "add", arguments: args }, wired()),
    close: () => client.close(),
  };
}

/** CPU microseconds per call of `n` sequential calls of `one`. */
async function cpuPerCall(n, one) {
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) await one(i);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / n;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

async function bench(line, connect) {
  // Separate connections, so no side's state (ids, caches) slows another.
  const bareSide = await connect();
  const wiredSide = await connect();
  const rxSide = await connect();
  const [tool] = await mcpTools(rxSide.client);
  let checked = 0;
  const check = (text, i, what) => {
    if (text !== String(i + 1)) throw new Error(`${what} answered ${JSON.stringify(text)}`);
    checked++;
  };
  const sides = {
    bare: async (i) => check((await bareSide.sdkCall({ a: i, b: 1 })).content[0].text, i, "callTool"),
    wired: async (i) => check((await wiredSide.sdkCallWired({ a: i, b: 1 })).content[0].text, i, "callTool with signal and progress"),
    rx: async (i) => {
      const { messages } = await runToolCalls([{ id: `c${i}`, name: "add", arguments: { a: i, b: 1 } }], [tool]);
      check(messages[0].isError ? "error" : messages[0].content, i, "toolrx");
    },
  };
  const order = Object.keys(sides);
  for (let w = 0; w < 3; w++) for (const k of order) await cpuPerCall(CALLS, sides[k]);
  const us = { bare: [], wired: [], rx: [] };
  const vsBare = [];
  const vsWired = [];
  for (let r = 0; r < ROUNDS; r++) {
    const got = {};
    for (let j = 0; j < order.length; j++) {
      const k = order[(r + j) % order.length];
      got[k] = await cpuPerCall(CALLS, sides[k]);
      us[k].push(got[k]);
    }
    vsBare.push(got.rx / got.bare);
    vsWired.push(got.rx / got.wired);
  }
  await Promise.all([bareSide.close(), wiredSide.close(), rxSide.close()]);
  const expected = (3 + ROUNDS) * CALLS * order.length;
  if (checked !== expected) throw new Error(`${checked} calls checked, expected ${expected}`);
  return { line, bare: median(us.bare), wired: median(us.wired), rx: median(us.rx), vsBare: median(vsBare), vsWired: median(vsWired) };
}

/**
 * toolrx's own work per call, without an SDK under it: the same tool over a client stub that
 * answers at once. Against calling that stub directly with the options toolrx passes: the
 * adapter alone (the tool's handler called with a context), and the whole call (runToolCalls).
 */
async function ownWork() {
  const answer = { content: [{ type: "text", text: "3" }] };
  const stub = {
    listTools: async () => ({ tools: [addTool] }),
    callTool: async () => answer,
  };
  const [tool] = await mcpTools(stub);
  const ctxOf = (i) => ({
    context: {},
    sessionId: undefined,
    requestId: undefined,
    engine: undefined,
    toolCall: { id: `c${i}`, name: "add", arguments: {} },
    signal: new AbortController().signal,
  });
  const sides = {
    direct: (i) => stub.callTool({ name: "add", arguments: { a: i, b: 1 } }, undefined, wired()),
    adapter: (i) => tool.handler({ a: i, b: 1 }, ctxOf(i)),
    whole: (i) => runToolCalls([{ id: `c${i}`, name: "add", arguments: { a: i, b: 1 } }], [tool]),
  };
  const order = Object.keys(sides);
  for (let w = 0; w < 3; w++) for (const k of order) await cpuPerCall(CALLS * 4, sides[k]);
  const adapter = [];
  const whole = [];
  for (let r = 0; r < ROUNDS; r++) {
    const got = {};
    for (let j = 0; j < order.length; j++) {
      const k = order[(r + j) % order.length];
      got[k] = await cpuPerCall(CALLS * 4, sides[k]);
    }
    adapter.push(got.adapter - got.direct);
    whole.push(got.whole - got.direct);
  }
  return { adapter: median(adapter), whole: median(whole) };
}

const rows = [await bench("v1 (@modelcontextprotocol/sdk)", connectV1), await bench("v2 (@modelcontextprotocol/client)", connectV2)];
const verdict = (ratio) => `${ratio.toFixed(3)}× (${ratio <= TARGET ? "met" : "missed"})`;
console.log(`MCP call to an in-memory server: CPU µs per call, median of ${ROUNDS} paired rounds of ${CALLS} sequential calls (Node ${process.version})`);
console.log(
  "| SDK line | callTool bare | callTool + signal + progress | through toolrx | toolrx ÷ bare (target ≤ 1.05) | toolrx ÷ signal + progress (target ≤ 1.05) |",
);
console.log("|---|---:|---:|---:|---|---|");
for (const r of rows) {
  console.log(`| ${r.line} | ${r.bare.toFixed(1)} | ${r.wired.toFixed(1)} | ${r.rx.toFixed(1)} | ${verdict(r.vsBare)} | ${verdict(r.vsWired)} |`);
}
const own = await ownWork();
console.log(
  `toolrx's own work per call (client stubbed to answer at once): ${own.whole.toFixed(1)} µs, ` +
    `${((own.whole / rows[0].bare) * 100).toFixed(0)}% of a bare v1 call, ${((own.whole / rows[1].bare) * 100).toFixed(0)}% of a bare v2 call; ` +
    `of which the MCP adapter ${own.adapter.toFixed(1)} µs, the rest the runner (validation, deadline, events, the message)`,
);
reportTargets([
  {
    id: "mcp-overhead",
    target: "MCP: toolrx's own work ≤ 2 µs per call on top of the SDK's cancellable call with progress",
    met: own.whole <= 2,
    figure:
      `${own.whole.toFixed(1)} µs (the adapter ${own.adapter.toFixed(1)} µs, the runner the rest); over the real SDK: ` +
      rows.map((r) => `${(r.rx - r.wired).toFixed(1)} µs on ${r.line.split(" ")[0]}`).join(", "),
  },
]);
