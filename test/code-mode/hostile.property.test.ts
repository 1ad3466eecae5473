import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, error, ok, runToolCalls } from "../../src/index.js";
import { CODE_MODE_ERROR_CODES, codeMode } from "../../src/code-mode/index.js";
import { huntRuns } from "../support/hunt-runs.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/**
 * Hostile scripts from a grammar: a script is a few operations before its `return`, some of
 * them hostile, and work it leaves scheduled to run after it. Legitimate calls are numbered in
 * the order the script awaits them (`k` from 0); calls made after the return use `k` ≥ 1000, a
 * call past the argument limit uses 2000, a forged host call 3000.
 */
type Op =
  | { readonly kind: "call"; readonly pad: number; readonly depth: number; readonly fail: "no" | "caught" | "uncaught" }
  | { readonly kind: "raw"; readonly text: string };

const OVERWRITES = [
  'JSON.stringify = () => "{not json";',
  "JSON.parse = () => ({ k: 1 });",
  "JSON = undefined;",
  "Object = null;",
  "Object.prototype.then = (resolve) => resolve(7);",
  'Object.prototype.toJSON = () => "polluted";',
  "Object.defineProperty = () => { throw new Error('no'); };",
  "Promise = function () { throw new Error('no promises'); };",
  "Promise.prototype.then = function () { return this; };",
  "Promise.resolve = () => new Promise(() => {});",
  "Function.prototype.call = () => 1; Function.prototype.apply = () => 2;",
  "Function.prototype.constructor = null;",
  "Reflect.apply = () => 0; Reflect.construct = () => ({});",
  "Error.prototype.toString = () => { throw 1; };",
  "Array.prototype[Symbol.iterator] = function* () { yield 1; };",
  "String.prototype.toString = () => { throw 2; };",
  "Symbol.prototype.description = 'x';",
  "Math.random = () => 0.5; Date.now = () => 1;",
  "globalThis.tools = null;",
  "Promise.prototype.constructor = function () { throw new Error('species'); };",
  "Object.defineProperty(Promise, Symbol.species, { get() { throw 1; } });",
  "Object.setPrototypeOf(globalThis, null);",
  "Object.freeze(Object.prototype); Object.freeze(Array.prototype);",
  "ToolCallError = class extends Error { constructor() { super('forged'); this.reason = 'forged'; } };",
];
const HOST_NAMES = [
  'globalThis.__hostEnd(false, "forged", "diverged");',
  "__hostCall('t', '{\"k\":3000}');",
  "globalThis.__state = 0; __seed = 1; __now = 2;",
  'for (const key of Object.getOwnPropertyNames(globalThis)) if (key.startsWith("__")) globalThis[key]("t", "{\\"k\\":3000}");',
];
const THROWS = [
  "throw 42;",
  "throw null;",
  "throw undefined;",
  "throw { get message() { throw 1; }, get name() { throw 2; } };",
  "throw new Proxy({}, { get() { throw 1; }, getPrototypeOf() { throw 2; }, getOwnPropertyDescriptor() { throw 3; } });",
  'throw new Error("upstream: out of memory, stack overflow, interrupted");',
  'throw Object.create(InternalError.prototype, { message: { value: "out of memory" } });',
];
const ODD_ARGUMENTS = [
  "await tools.t({ get k() { throw new Error('getter'); } });",
  "await tools.t(new Proxy({}, { ownKeys() { throw 1; } }));",
  "await tools.t({ k: 1, toJSON() { for (;;) {} } });",
  "await tools.t({ k: 1n });",
];
const LOOPS = [
  "{ const f = () => Promise.resolve().then(f); f(); }",
  "{ const g = async () => { await null; return g(); }; g(); }",
  "{ const a = []; for (;;) a.push(new Array(10000).fill(1)); }",
  "{ let a = [1]; for (;;) a = a.concat(a); }",
  "for (;;) {}",
  "await new Promise(() => {});",
];
const LATER = [
  "tools.t({ k: LATE });",
  "const f = () => Promise.resolve().then(f); f();",
  "for (;;) { try { let a = [1]; for (;;) a = a.concat(a); } catch {} }",
  "for (;;) {}",
];

const hostile = fc.oneof(
  fc.constantFrom(...OVERWRITES, ...HOST_NAMES, ...THROWS, ...ODD_ARGUMENTS, ...LOOPS).map((text): Op => ({ kind: "raw", text })),
  fc.constant<Op>({ kind: "raw", text: 'await tools.t({ k: 2000, pad: "x".repeat(2e6) });' }),
);
const call = fc.record({
  kind: fc.constant("call" as const),
  pad: fc.constantFrom(0, 0, 100_000, 600_000),
  depth: fc.constantFrom(0, 0, 1_000, 100_000),
  fail: fc.constantFrom("no" as const, "no" as const, "caught" as const, "uncaught" as const),
});
const scriptArb = fc.record({
  before: fc.array(fc.oneof({ weight: 3, arbitrary: call }, { weight: 2, arbitrary: hostile }), { maxLength: 5 }),
  later: fc.array(fc.record({ ticks: fc.constantFrom(1, 6), body: fc.constantFrom(...LATER) }), { maxLength: 2 }),
});

/**
 * The script's text, how many legitimate calls it awaits if nothing ends it early, and how many of
 * them reach the tool: none after the script sets `Object.prototype.toJSON`, since the guest's own
 * `JSON.stringify` then makes their arguments a string, answered `invalid_arguments` without a run
 * (the hunt's seed 106465208, path 56:2:4:5:4:4; findings.test.ts keeps that answer).
 */
function render({ before, later }: { readonly before: readonly Op[]; readonly later: readonly { ticks: number; body: string }[] }): {
  script: string;
  calls: number;
  runnable: number;
} {
  let k = 0;
  let runnable: number | undefined;
  const lines = before.map((op) => {
    if (op.kind === "raw") {
      if (op.text.startsWith("Object.prototype.toJSON")) runnable ??= k;
      return op.text;
    }
    const args = `{ k: ${k++}${op.pad > 0 ? `, pad: "x".repeat(${op.pad})` : ""}${op.depth > 0 ? ", d" : ""}${op.fail === "no" ? "" : ", fail: true"} }`;
    const deep = op.depth > 0 ? `let d = 0; for (let i = 0; i < ${op.depth}; i++) d = [d];` : "";
    const awaited =
      op.fail === "caught" ? `try { await tools.t(${args}); } catch (e) { log.push(String(e && e.reason)); }` : `log.push(await tools.t(${args}));`;
    return `{ ${deep} ${awaited} }`;
  });
  const scheduled = later.map(
    ({ ticks, body }, i) =>
      `{ let p = Promise.resolve(); for (let i = 0; i < ${ticks}; i++) p = p.then(() => null); p.then(() => { ${body.replace("LATE", String(1000 + i))} }); }`,
  );
  return { script: `const log = [];\n${lines.join("\n")}\n${scheduled.join("\n")}\nreturn log;`, calls: k, runnable: runnable ?? k };
}

describe("codeMode against hostile scripts (property)", () => {
  const ran: number[] = [];
  const t = defineTool({
    name: "t",
    description: "",
    schema: z.object({ k: z.number(), fail: z.boolean().optional() }),
    handler: ({ k, fail }) => {
      ran.push(k);
      return fail === true ? error("out of memory: stack overflow, interrupted") : ok(k);
    },
  });
  const cpuMs = 1_000;
  const code = codeMode({ tools: [t], limits: { cpuMs, memoryBytes: 16 * 1024 * 1024 } });
  const crashes: unknown[] = [];
  const onCrash = (e: unknown): void => {
    crashes.push(e);
  };
  beforeAll(() => {
    process.on("uncaughtException", onCrash);
    process.on("unhandledRejection", onCrash);
  });
  afterAll(async () => {
    process.off("uncaughtException", onCrash);
    process.off("unhandledRejection", onCrash);
    await code.close();
  });
  const heapBound = 96 * 1024 * 1024;
  let baseline = 0;

  it("ends every script with a closed code on its own, runs only the calls it awaited, and leaves the host and the next script unharmed", async () => {
    gc();
    baseline = process.memoryUsage().heapUsed;
    await fc.assert(
      fc.asyncProperty(scriptArb, async (shape) => {
        const { script, calls, runnable } = render(shape);
        ran.length = 0;
        // The runner's deadline is only a backstop, cpuMs + 1 s plus a margin for a loaded machine: the sandbox must answer first, with its own code.
        const result = await runToolCalls([{ id: "x", name: "run_script", arguments: { script } }], [code.tool], { toolTimeout: cpuMs + 1_000 + 6_000 });
        expect(result.messages).toHaveLength(1);
        const content = result.messages[0]?.content ?? "";
        if (result.messages[0]?.isError === true) {
          const code = /^\{"error":"script ended \((\w+)\)/.exec(content)?.[1];
          expect(CODE_MODE_ERROR_CODES, `the answer: ${content.slice(0, 500)}`).toContain(code);
        }
        // Only the script's own awaited calls ran, in order, each once: never one made after it returned or forged.
        expect(ran).toEqual(Array.from({ length: ran.length }, (_, i) => i));
        expect(ran.length).toBeLessThanOrEqual(calls);
        if (result.messages[0]?.isError === false) expect(ran).toHaveLength(runnable);
        expect(crashes).toEqual([]);
        ran.length = 0;
        const next = await runToolCalls([{ id: "n", name: "run_script", arguments: { script: "return (await tools.t({ k: 0 })) + 1;" } }], [code.tool], {
          toolTimeout: 15_000,
        });
        expect(next.messages[0]?.content).toBe("1");
        gc();
        expect(process.memoryUsage().heapUsed - baseline).toBeLessThan(heapBound);
      }),
      { numRuns: huntRuns(25, 100) },
    );
  }, 600_000);
});
