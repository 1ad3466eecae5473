#!/usr/bin/env bash
# Pack smoke test: install the packed tarball into a clean project, as a user would, and use it
# from ESM, from CommonJS, and from TypeScript (node16, bundler and node10 resolution, ESM and CJS
# types), and check that the tarball carries the license.
# Needs a build (`npm run build`). Exits non-zero on any failure.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
tsc="$root/node_modules/.bin/tsc"
work="$(mktemp -d "${TMPDIR:-/tmp}/toolrx-smoke.XXXXXX")"
trap 'rm -rf "$work"' EXIT
start=$SECONDS

if [[ ! -f "$root/dist/index.js" || ! -f "$root/dist/index.cjs" ]]; then
  echo "smoke-pack: no build in $root/dist; run \`npm run build\` first" >&2
  exit 1
fi

echo "smoke-pack: packing into $work"
tarball="$(cd "$root" && npm pack --pack-destination "$work" --json --silent | node -e '
  let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(JSON.parse(s)[0].filename));
')"
tarball="$(basename "$tarball")"
echo "smoke-pack: $tarball ($(du -k "$work/$tarball" | cut -f1) kB)"

# Not `tar | grep -q`: grep's early exit makes tar fail under pipefail.
if ! grep -qx 'package/LICENSE' <<<"$(tar -tzf "$work/$tarball")"; then
  echo "smoke-pack: the tarball has no LICENSE" >&2
  exit 1
fi

cd "$work"
# A user's project: the tarball, plus the peers at the newest versions its ranges admit.
node -e '
  const [tarball, manifest] = process.argv.slice(1);
  const { peerDependencies } = require(manifest);
  const dependencies = { toolrx: `file:./${tarball}`, ...peerDependencies };
  console.log(JSON.stringify({ name: "toolrx-smoke", private: true, type: "module", dependencies }, null, 2));
' "$tarball" "$root/package.json" > manifest.tmp
mv manifest.tmp package.json
npm install --prefer-offline --no-audit --no-fund --loglevel=error

# (a) ESM
cat > esm.mjs <<'JS'
import { defineTool, ok, runToolCalls } from "toolrx";
import { openai } from "toolrx/providers";
import { z } from "zod";

const weather = defineTool({
  name: "weather",
  description: "Weather by city",
  schema: z.object({ city: z.string() }),
  handler: ({ city }) => ok({ city, tempC: 21 }),
});
const echo = defineTool({
  name: "echo",
  description: "Echo",
  schema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  handler: ({ text }) => ok(text),
});
const { messages } = await runToolCalls(
  [
    { id: "c1", name: "weather", arguments: { city: "Lisbon" } },
    { id: "c2", name: "echo", arguments: { text: 42 } },
  ],
  [weather, echo],
);
const content = messages.map((m) => m.content).join(" ");
console.log(`esm: ${content}`);
if (!/^\{"city":"Lisbon","tempC":21\} \{"error":"Invalid arguments for tool \\"echo\\": text: /.test(content)) {
  throw new Error(`esm: unexpected content ${content}`);
}
if (openai.toTools([weather])[0]?.function.name !== "weather") throw new Error("esm: toolrx/providers is broken");
const { parseToolCalls } = await import("toolrx/providers/openai");
if (parseToolCalls({ choices: [] }).length !== 0) throw new Error("esm: toolrx/providers/openai is broken");
JS
node esm.mjs

# (b) CommonJS
cat > cjs.cjs <<'JS'
const { defineTool, ok, runToolCalls } = require("toolrx");
const { anthropic } = require("toolrx/providers");
const { z } = require("zod");

const weather = defineTool({
  name: "weather",
  description: "Weather by city",
  schema: z.object({ city: z.string() }),
  handler: ({ city }) => ok({ city, tempC: 21 }),
});
const echo = defineTool({
  name: "echo",
  description: "Echo",
  schema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  handler: ({ text }) => ok(text),
});
const calls = [
  { id: "c1", name: "weather", arguments: { city: "Oslo" } },
  { id: "c2", name: "echo", arguments: { text: "hi" } },
];
runToolCalls(calls, [weather, echo]).then(({ messages }) => {
  const content = messages.map((m) => m.content).join(" ");
  console.log(`cjs: ${content}`);
  if (content !== '{"city":"Oslo","tempC":21} hi') throw new Error(`cjs: unexpected content ${content}`);
  if (anthropic.toTools([weather])[0]?.name !== "weather") throw new Error("cjs: toolrx/providers is broken");
  if (typeof require("toolrx/providers/anthropic").messagesModel !== "function") throw new Error("cjs: toolrx/providers/anthropic is broken");
});
JS
node cjs.cjs

# (b2) toolrx/otel from ESM and CommonJS: a traced run opens a span per call, and the errors it
# hands a policy are the core's own classes (each subpath requires the core's shared chunks
# rather than carrying a copy of the core, so `instanceof ToolError` holds across them).
for flavour in mjs cjs; do
  if [ "$flavour" = mjs ]; then
    header='import { INVALID_SPAN_CONTEXT, trace } from "@opentelemetry/api"; import { defineTool, ToolError } from "toolrx"; import { telemetry } from "toolrx/otel"; import { z } from "zod";'
  else
    header='const { INVALID_SPAN_CONTEXT, trace } = require("@opentelemetry/api"); const { defineTool, ToolError } = require("toolrx"); const { telemetry } = require("toolrx/otel"); const { z } = require("zod");'
  fi
  cat > "otel.$flavour" <<JS
$header
const names = [];
const tracer = { startSpan: (name) => (names.push(name), trace.wrapSpanContext(INVALID_SPAN_CONTEXT)), startActiveSpan() {} };
const { runToolCalls } = telemetry({ tracerProvider: { getTracer: () => tracer } });
const boom = defineTool({ name: "boom", description: "", schema: z.object({}), handler: () => { throw new Error("down"); } });
let isToolError;
runToolCalls([{ id: "c1", name: "boom", arguments: {} }], [boom], {
  onToolError: (_call, e) => ((isToolError = e instanceof ToolError), { continue: "recovered" }),
}).then(({ messages }) => {
  console.log("otel ($flavour): " + names.join(", ") + "; instanceof ToolError: " + isToolError);
  if (names.join() !== "execute_tool boom" || isToolError !== true || messages[0].content !== "recovered") throw new Error("otel ($flavour) is broken");
});
JS
  node "otel.$flavour"
done
# Its shipped types, under node16 resolution, with the .d.ts and .d.cts checked themselves.
cat > otel.ts <<'TS'
import { telemetry, type Telemetry, type TelemetryOptions } from "toolrx/otel";

const options: TelemetryOptions = { recordContent: { maxLength: 200 }, agentName: "travel" };
export const traced: Telemetry = telemetry(options);
// @ts-expect-error: recordContent is a boolean or { maxLength }
telemetry({ recordContent: "yes" });
TS
cp otel.ts otel-cjs.cts
cat > tsconfig.otel.json <<'JSON'
{ "compilerOptions": { "target": "ES2022", "lib": ["ES2022", "DOM"], "module": "node16", "moduleResolution": "node16",
  "strict": true, "noEmit": true, "skipLibCheck": false, "types": [] }, "files": ["otel.ts", "otel-cjs.cts"] }
JSON
"$tsc" -p tsconfig.otel.json
echo "tsc: toolrx/otel, node16 resolution, ESM and CJS types: ok"

# (c) TypeScript: handler arguments are inferred from a zod schema and from a JSON Schema `as const`.
# A `@ts-expect-error` that is not needed is itself an error, so the check fails if inference
# degrades to `any`; assigning to `string` fails if it degrades to `unknown`.
cat > check.ts <<'TS'
import { z } from "zod";
import { defineTool, ok, runToolCalls, type RunResult, type ToolEvent } from "toolrx";
import { openai } from "toolrx/providers";

const fromZod = defineTool({
  name: "weather",
  description: "Weather by city",
  schema: z.object({ city: z.string(), days: z.number().int().default(1) }),
  handler: (args, ctx) => {
    const city: string = args.city;
    const days: number = args.days;
    const signal: AbortSignal = ctx.signal;
    // @ts-expect-error `country` is not in the schema
    args.country;
    return ok({ city, days, aborted: signal.aborted });
  },
});

const fromJsonSchema = defineTool({
  name: "read_file",
  description: "Read a file",
  schema: {
    type: "object",
    properties: { path: { type: "string" }, lines: { type: "integer" } },
    required: ["path"],
    additionalProperties: false,
  } as const,
  handler: (args) => {
    const path: string = args.path;
    const lines: number | undefined = args.lines;
    // @ts-expect-error `path` is a string, not a number
    const wrong: number = args.path;
    // @ts-expect-error `lines` is optional
    const required: number = args.lines;
    return ok({ path, lines, wrong, required });
  },
});

export const result: Promise<RunResult> = runToolCalls([], [fromZod, fromJsonSchema]);
export const describeEvent = (e: ToolEvent): string => e.type;
export const tools = openai.toTools([fromZod, fromJsonSchema]);
TS
cp check.ts check-cjs.cts

tsconfig() { # module, moduleResolution, skipLibCheck, files...
  node -e '
    const [module, moduleResolution, skipLibCheck, ...files] = process.argv.slice(1);
    console.log(JSON.stringify({ compilerOptions: {
      target: "ES2022", lib: ["ES2022", "DOM"], module, moduleResolution, strict: true,
      noEmit: true, skipLibCheck: skipLibCheck === "true", types: [] }, files }, null, 2));
  ' "$@"
}
# The node16 run also checks the shipped .d.ts and .d.cts files themselves (no skipLibCheck).
tsconfig node16 node16 false check.ts check-cjs.cts > tsconfig.node16.json
tsconfig esnext bundler true check.ts > tsconfig.bundler.json
# node10 is what `module: commonjs` picks by default: it ignores `exports`, so each subpath's types
# must be found another way (package.json `typesVersions`).
tsconfig commonjs node10 true check.ts > tsconfig.node10.json
"$tsc" -p tsconfig.node16.json
echo "tsc: node16 resolution, ESM and CJS types: ok"
"$tsc" -p tsconfig.bundler.json
echo "tsc: bundler resolution: ok"
"$tsc" -p tsconfig.node10.json
echo "tsc: node10 resolution: ok"

# (e) The agent loop on toolrx/testing's scripted model, from ESM, CommonJS and TypeScript.
cat > agent.mjs <<'JS'
import { defineTool, ok, runAgent } from "toolrx";
import { scriptedModel } from "toolrx/testing";
import { z } from "zod";

const weather = defineTool({
  name: "weather",
  description: "Weather by city",
  schema: z.object({ city: z.string() }),
  handler: ({ city }) => ok({ city, tempC: 21 }),
});
const model = scriptedModel([
  [{ type: "tool_call", call: { id: "c1", name: "weather", arguments: { city: "Oslo" } } }, { type: "finish", reason: "tool_calls" }],
  [{ type: "text_delta", text: "Sunny, 21 °C." }, { type: "finish", reason: "stop" }],
]);
const result = await runAgent({ model, tools: [weather], messages: [{ role: "user", content: "Weather in Oslo?" }] });
console.log(`esm agent: ${result.haltedReason} after ${model.requests.length} model calls`);
if (result.haltedReason !== "completed" || result.messages.length !== 4) throw new Error(`esm agent: unexpected ${JSON.stringify(result)}`);
JS
node agent.mjs

cat > agent.cjs <<'JS'
const { runAgent } = require("toolrx");
const { scriptedModel } = require("toolrx/testing");

const model = scriptedModel([[{ type: "text_delta", text: "hi" }, { type: "finish", reason: "stop" }]]);
runAgent({ model, tools: [], messages: [{ role: "user", content: "hi" }] }).then((result) => {
  console.log(`cjs agent: ${result.haltedReason}`);
  if (result.haltedReason !== "completed") throw new Error(`cjs agent: unexpected ${JSON.stringify(result)}`);
});
JS
node agent.cjs

cat > agent.ts <<'TS'
import { runAgent, streamAgent, type AgentEvent, type AgentResult } from "toolrx";
import { scriptedModel, type ScriptedModel } from "toolrx/testing";
import type { Observable } from "rxjs";

const model: ScriptedModel = scriptedModel([[{ type: "finish", reason: "stop" }]], { delay: 10 });
export const events: Observable<AgentEvent> = streamAgent({ model, tools: [], messages: [] });
export const result: Promise<AgentResult> = runAgent({ model, tools: [], messages: [], maxTurns: 2 });
// @ts-expect-error: mode is "auto" or "manual"
runAgent({ model, tools: [], messages: [], mode: "sometimes" });
TS
cp agent.ts agent-cjs.cts
tsconfig node16 node16 false agent.ts agent-cjs.cts > tsconfig.agent.json
"$tsc" -p tsconfig.agent.json
echo "tsc: toolrx/testing and the agent loop, node16 resolution, ESM and CJS types: ok"

# (f) toolrx/mcp with the MCP SDK (an optional peer): a toolrx tool served and read back, ESM and CommonJS.
cat > mcp.mjs <<'JS'
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { defineTool, ok, runToolCalls } from "toolrx";
import { mcpTools, serveTools } from "toolrx/mcp";
import { z } from "zod";

const weather = defineTool({ name: "weather", description: "", schema: z.object({ city: z.string() }), handler: ({ city }) => ok({ city }) });
const server = new Server({ name: "smoke", version: "1.0.0" });
serveTools(server, [weather]);
const [a, b] = InMemoryTransport.createLinkedPair();
await server.connect(b);
const client = new Client({ name: "smoke", version: "1.0.0" });
await client.connect(a);
const { messages } = await runToolCalls([{ id: "c1", name: "s__weather", arguments: { city: "Oslo" } }], await mcpTools({ s: client }));
console.log(`esm mcp: ${messages[0].content}`);
if (messages[0].content !== '{"city":"Oslo"}') throw new Error("esm mcp: unexpected content");
await client.close();
JS
node mcp.mjs

cat > mcp.cjs <<'JS'
const { mcpTools, serveTools, McpToolsError } = require("toolrx/mcp");
if (typeof mcpTools !== "function" || typeof serveTools !== "function" || typeof McpToolsError !== "function") throw new Error("cjs: toolrx/mcp is broken");
console.log("cjs mcp: ok");
JS
node mcp.cjs

cat > mcp.ts <<'TS'
import { mcpTools, type McpClientLike, type McpToolsOptions } from "toolrx/mcp";
import type { Tool } from "toolrx";
export const tools = (client: McpClientLike, options: McpToolsOptions): Promise<Tool[]> => mcpTools({ s: client }, options);
TS
cp mcp.ts mcp-cjs.cts
tsconfig node16 node16 false mcp.ts mcp-cjs.cts > tsconfig.mcp.json
tsconfig commonjs node10 true mcp.ts > tsconfig.mcp-node10.json
"$tsc" -p tsconfig.mcp.json
"$tsc" -p tsconfig.mcp-node10.json
echo "tsc: toolrx/mcp, node16 (ESM and CJS types) and node10 resolution: ok"

# (g) toolrx/node: a handler in the user's own module runs in a worker thread from ESM and
# CommonJS (the worker script ships next to the subpath), and a stuck one is answered `timeout`.
cat > handlers.mjs <<'JS'
export const double = ({ n }) => ({ type: "ok", value: n * 2 });
export const stuck = () => { for (;;); };
JS
for flavour in mjs cjs; do
  if [ "$flavour" = mjs ]; then
    header='import { runToolCalls } from "toolrx"; import { workerPool } from "toolrx/node"; import { z } from "zod"; const here = import.meta.url;'
  else
    header='const { runToolCalls } = require("toolrx"); const { workerPool } = require("toolrx/node"); const { z } = require("zod"); const here = require("node:url").pathToFileURL(__filename).href;'
  fi
  cat > "node.$flavour" <<JS
$header
const pool = workerPool({ size: 1, grace: 10 });
const handlers = new URL("./handlers.mjs", here);
const double = pool.tool({ name: "double", description: "", schema: z.object({ n: z.number() }), module: handlers, export: "double" });
const stuck = pool.tool({ name: "stuck", description: "", schema: z.object({}), module: handlers, export: "stuck" });
pool.warm().then(() => runToolCalls([{ id: "a", name: "double", arguments: { n: 21 } }, { id: "b", name: "stuck", arguments: {} }], [double, stuck], { toolExecutor: pool, toolTimeout: 300 })).then(async ({ messages }) => {
  const content = messages.map((m) => m.content).join(" ");
  console.log("node ($flavour): " + content);
  if (!content.startsWith('42 {"error":"timeout')) throw new Error("node ($flavour): unexpected content " + content);
  await pool.close();
});
JS
  node "node.$flavour"
done
cat > node.ts <<'TS'
import { workerPool, type WorkerPool, type WorkerPoolOptions } from "toolrx/node";
export const pool = (options: WorkerPoolOptions): WorkerPool => workerPool(options);
TS
cp node.ts node-cjs.cts
tsconfig node16 node16 false node.ts node-cjs.cts > tsconfig.node-subpath.json
tsconfig commonjs node10 true node.ts > tsconfig.node-subpath-node10.json
"$tsc" -p tsconfig.node-subpath.json
"$tsc" -p tsconfig.node-subpath-node10.json
echo "tsc: toolrx/node, node16 (ESM and CJS types) and node10 resolution: ok"

# (i) toolrx/code-mode (QuickJS is an optional peer): the sandbox thread's program ships inside the
# built subpath; a script's nested call runs through the runner from ESM and CommonJS.
for flavour in mjs cjs; do
  if [ "$flavour" = mjs ]; then
    header='import { defineTool, ok, runToolCalls } from "toolrx"; import { codeMode } from "toolrx/code-mode"; import { z } from "zod";'
  else
    header='const { defineTool, ok, runToolCalls } = require("toolrx"); const { codeMode } = require("toolrx/code-mode"); const { z } = require("zod");'
  fi
  cat > "code-mode.$flavour" <<JS
$header
const price = defineTool({ name: "price", description: "", schema: z.object({ sku: z.string() }), handler: ({ sku }) => ok(sku.length * 10) });
const code = codeMode({ tools: [price] });
const script = 'const a = await tools.price({ sku: "ab" }); return { total: a + (await tools.price({ sku: "abc" })) };';
runToolCalls([{ id: "c1", name: "run_script", arguments: { script } }], [code.tool]).then(async ({ messages }) => {
  const content = messages[0].content;
  console.log("code-mode ($flavour): " + content);
  if (content !== '{"total":50}') throw new Error("code-mode ($flavour): unexpected content " + content);
  await code.close();
});
JS
  node "code-mode.$flavour"
done

# (h) toolrx/bullmq (bullmq and ioredis are optional peers): it loads from ESM and CommonJS, and
# checks its options before touching Redis.
cat > bullmq.mjs <<'JS'
import { bullmqExecutor, jobIdOf } from "toolrx/bullmq";
if (jobIdOf("conv", "call:1", 1) !== "conv|call%3A1") throw new Error("esm: toolrx/bullmq is broken");
try { bullmqExecutor({ connection: "redis://127.0.0.1:1", queue: "a:b" }); throw new Error("no TypeError"); } catch (e) { if (!(e instanceof TypeError)) throw e; }
console.log("esm bullmq: ok");
JS
node bullmq.mjs
node -e 'const b = require("toolrx/bullmq"); if (typeof b.bullmqWorker !== "function" || typeof b.RedisApprovalLedger !== "function") throw new Error("cjs: toolrx/bullmq is broken"); console.log("cjs bullmq: ok")'

# (d) The lowest versions the peer ranges admit: the runtime checks again.
min_peers="$(node -e '
  const { peerDependencies } = require("./node_modules/toolrx/package.json");
  console.log(Object.entries(peerDependencies).map(([name, range]) => {
    if (!/^\^?\d+\.\d+\.\d+$/.test(range)) throw new Error(`cannot take the minimum of ${name}@${range}`);
    return `${name}@${range.replace(/^\^/, "")}`;
  }).join(" "));
')"
echo "smoke-pack: minimum peers: $min_peers"
# shellcheck disable=SC2086 # one word per package
npm install --no-save --prefer-offline --no-audit --no-fund --loglevel=error $min_peers
node esm.mjs
node cjs.cjs
node otel.mjs
node otel.cjs
node agent.mjs
node agent.cjs
node mcp.mjs

echo "smoke-pack: ok ($((SECONDS - start)) s)"
