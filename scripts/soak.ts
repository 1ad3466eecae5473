/**
 * Soak: 100,000 randomized calls through runToolCalls, in batches of random size, with every
 * kind of handler behaviour (sync and async results, throws, rejections, illegal and hostile
 * values, hung handlers cut by their deadline) and random policies. Counts what the runner
 * promises never happens (a call lost or answered twice, an unhandled rejection) and reports
 * the peak RSS.
 *
 *   npx tsx scripts/soak.ts [calls=100000] [seed=1]
 */
import { z } from "zod";
import { defineTool, error, ok, runToolCalls, type HandlerResult, type OnToolError, type ToolCall } from "../src/index.js";

const total = Number(process.argv[2] ?? 100_000);
let seed = Number(process.argv[3] ?? 1);
/** mulberry32: the same seed gives the same run. */
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

const traced = new Error("db down");
function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}
const hostileValues: (() => unknown)[] = [
  revoked,
  () => ({
    get type() {
      throw traced;
    },
  }),
  () => ({
    // biome-ignore lint/suspicious/noThenProperty: a hostile thenable the handlers return on purpose
    then() {
      throw traced;
    },
  }),
  () => ({ name: "Error", message: "db down", stack: traced.stack }),
  () => {
    const o: Record<string, unknown> = {};
    o.self = o;
    return o;
  },
  () => "bare value",
];

type Behaviour = (n: number) => unknown;
const behaviours: Behaviour[] = [
  (n) => ok({ n }),
  async (n) => ok({ n }),
  (n) => error(`failed ${n}`),
  async (n) => error(new Error(`failed ${n}`)),
  () => {
    throw pick(hostileValues)();
  },
  async () => Promise.reject(pick(hostileValues)()),
  () => pick(hostileValues)(),
  async () => ok(pick(hostileValues)()),
  () => error(pick(hostileValues)()),
  () => new Promise(() => {}), // hung: its 20 ms deadline answers it
];
const tools = behaviours.map((behave, i) =>
  defineTool({
    name: `b${i}`,
    description: "",
    schema: z.object({ n: z.number() }),
    handler: ({ n }) => behave(n) as HandlerResult,
  }),
);
const policies: OnToolError[] = [
  "continue",
  "halt",
  () => ({ continue: "fallback" }),
  () => {
    throw pick(hostileValues)();
  },
  () => pick(hostileValues)() as "halt",
];

let unhandled = 0;
process.on("unhandledRejection", () => unhandled++);
let peakRss = 0;
const sample = () => (peakRss = Math.max(peakRss, process.memoryUsage.rss()));
const sampler = setInterval(sample, 50);

let sent = 0;
let lost = 0;
let duplicated = 0;
let misordered = 0;
let batches = 0;
const started = performance.now();
while (sent < total) {
  const size = Math.min(total - sent, 1 + Math.floor(random() * 200));
  const calls: ToolCall[] = Array.from({ length: size }, (_, i) => {
    const n = sent + i;
    return { id: `c${n}`, name: `b${Math.floor(random() * tools.length)}`, arguments: { n } };
  });
  const { messages } = await runToolCalls(calls, tools, {
    onToolError: pick(policies),
    toolTimeout: 20,
    maxConcurrency: 1 + Math.floor(random() * 32),
  });
  const seen = new Set<string>();
  for (const m of messages) {
    if (seen.has(m.toolCallId)) duplicated++;
    seen.add(m.toolCallId);
  }
  for (const [i, call] of calls.entries()) {
    if (!seen.has(call.id)) lost++;
    else if (messages[i]?.toolCallId !== call.id) misordered++;
  }
  sent += size;
  batches++;
  sample();
}
await new Promise((resolve) => setTimeout(resolve, 100));
clearInterval(sampler);
const seconds = (performance.now() - started) / 1000;
console.log(
  JSON.stringify(
    {
      calls: sent,
      batches,
      lost,
      duplicated,
      misordered,
      unhandledRejections: unhandled,
      peakRssMB: Math.round(peakRss / 2 ** 20),
      seconds: Math.round(seconds),
    },
    null,
    1,
  ),
);
process.exit(lost + duplicated + misordered + unhandled === 0 ? 0 : 1);
