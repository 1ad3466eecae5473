/**
 * The MCP path of two toolrx builds in one process, each against the SDK's `callTool` with the
 * options toolrx passes (a signal, progress): one call per `runToolCalls`, CPU per call, paired
 * rounds rotating which side runs first, so the ratio between builds survives a shared machine.
 *
 *   node bench/mcp-paired.mjs <base checkout with dist/> <new checkout with dist/> [rounds] [calls]
 *
 * e.g. build the starting commit in a copy (`git archive <commit> | tar -x -C /tmp/base`, link its
 * node_modules, `npm run build`), then `npm run build && node bench/mcp-paired.mjs /tmp/base . 11 400`.
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
const [baseRepo, newRepo, R = "9", N = "400"] = process.argv.slice(2).map((a, i) => (i < 2 ? resolve(a) : a));
const ROUNDS = Number(R),
  CALLS = Number(N);
const load = async (repo) => ({
  run: (await import(pathToFileURL(`${repo}/dist/index.js`))).runToolCalls,
  mcpTools: (await import(pathToFileURL(`${repo}/dist/mcp/index.js`))).mcpTools,
});
const builds = { base: await load(baseRepo), new: await load(newRepo) };
const { Client: C1 } = await import("@modelcontextprotocol/sdk/client/index.js");
const { InMemoryTransport: M1 } = await import("@modelcontextprotocol/sdk/inMemory.js");
const { Server: S1 } = await import("@modelcontextprotocol/sdk/server/index.js");
const { CallToolRequestSchema, ListToolsRequestSchema } = await import("@modelcontextprotocol/sdk/types.js");
const { Client: C2, InMemoryTransport: M2 } = await import("@modelcontextprotocol/client");
const { Server: S2 } = await import("@modelcontextprotocol/server");
const addTool = {
  name: "add",
  description: "Add two numbers",
  inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
};
const answer = (args) => ({ content: [{ type: "text", text: String(args.a + args.b) }] });
const wired = () => ({ signal: new AbortController().signal, timeout: 2_147_483_647, onprogress: () => {}, resetTimeoutOnProgress: true });
async function connect(line) {
  const v1 = line === "v1";
  const server = v1
    ? new S1({ name: "b", version: "1" }, { capabilities: { tools: {} } })
    : new S2({ name: "b", version: "1" }, { capabilities: { tools: {} } });
  server.setRequestHandler(v1 ? ListToolsRequestSchema : "tools/list", () => ({ tools: [addTool] }));
  server.setRequestHandler(v1 ? CallToolRequestSchema : "tools/call", (r) => answer(r.params.arguments));
  const [a, b] = (v1 ? M1 : M2).createLinkedPair();
  await server.connect(b);
  const client = v1 ? new C1({ name: "b", version: "1" }) : new C2({ name: "b", version: "1" });
  await client.connect(a);
  const call = v1
    ? (args) => client.callTool({ name: "add", arguments: args }, undefined, wired())
    : (args) => client.callTool({ name: "add", arguments: args }, wired());
  return { client, call };
}
async function cpu(one) {
  const s = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) await one(i);
  const u = process.cpuUsage(s);
  return (u.user + u.system) / CALLS;
}
const med = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
for (const line of ["v1", "v2"]) {
  const w = await connect(line);
  const sides = {
    wired: async (i) => {
      const r = await w.call({ a: i, b: 1 });
      if (r.content[0].text !== String(i + 1)) throw new Error("wired");
    },
  };
  for (const [name, b] of Object.entries(builds)) {
    const c = await connect(line);
    const [tool] = await b.mcpTools(c.client);
    sides[name] = async (i) => {
      const { messages } = await b.run([{ id: `c${i}`, name: "add", arguments: { a: i, b: 1 } }], [tool]);
      if (messages[0].content !== String(i + 1)) throw new Error(name);
    };
  }
  const order = Object.keys(sides);
  for (let k = 0; k < 3; k++) for (const s of order) await cpu(sides[s]);
  const r = { base: [], new: [], newVsBase: [], us: { wired: [], base: [], new: [] } };
  for (let i = 0; i < ROUNDS; i++) {
    const got = {};
    for (let j = 0; j < order.length; j++) {
      const s = order[(i + j) % order.length];
      got[s] = await cpu(sides[s]);
      r.us[s].push(got[s]);
    }
    r.base.push(got.base / got.wired);
    r.new.push(got.new / got.wired);
    r.newVsBase.push(got.new / got.base);
  }
  const q = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return `${med(s).toFixed(2)}× (${s[Math.floor(s.length / 4)].toFixed(2)}–${s[Math.floor((3 * s.length) / 4)].toFixed(2)})`;
  };
  console.log(
    `${line}: µs/call wired ${med(r.us.wired).toFixed(1)} base ${med(r.us.base).toFixed(1)} new ${med(r.us.new).toFixed(1)} | base÷wired ${q(r.base)} | new÷wired ${q(r.new)} | new÷base ${q(r.newVsBase)}`,
  );
}
process.exit(0);
