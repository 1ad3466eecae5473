import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ok, runToolCalls, type ToolEvent } from "../../src/index.js";
import { codeMode } from "../../src/code-mode/index.js";
import { countedTools, runScript } from "./helpers.js";

const { runs, tools } = countedTools();
const code = codeMode({ tools, limits: { cpuMs: 1_000, memoryBytes: 16 * 1024 * 1024 } });
afterAll(() => code.close());

const content = async (script: string) => (await runScript(code.tool, script)).messages[0];

describe("codeMode", () => {
  it("runs a script whose nested calls go through the runner", async () => {
    const m = await content(
      "const x = await tools.add({ a: 1, b: 2 }); const [y, z] = await Promise.all([tools.add({ a: x, b: 1 }), tools.add({ a: 2, b: 2 })]); return { x, y, z };",
    );
    expect(m).toMatchObject({ isError: false, content: '{"x":3,"y":4,"z":4}' });
  });

  it("throws a failed nested call into the script as a ToolCallError with its reason", async () => {
    const m = await content('try { await tools.fail({ why: "nope" }); } catch (e) { return [e instanceof ToolCallError, e.tool, e.reason, e.message]; }');
    expect(JSON.parse(m?.content ?? "")).toEqual([true, "fail", "tool_error", '{"error":"nope"}']);
  });

  it("answers invalid arguments with a typed error, as the runner validates them", async () => {
    const m = await content('try { await tools.add({ a: "1" }); } catch (e) { return e.reason; }');
    expect(m?.content).toBe("invalid_arguments");
  });
});

describe("codeMode sandbox", () => {
  const escapes: [string, string][] = [
    ["process", "return typeof process + typeof globalThis.process;"],
    ["require", "return typeof require;"],
    [
      "host globalThis",
      "return Object.getOwnPropertyNames(globalThis).filter((k) => /^(process|require|Buffer|module|exports|__host.*|__names|__seed|__now|fetch|setTimeout|setInterval|queueMicrotask|WebAssembly|std|os)$/.test(k)).join();",
    ],
    [
      "Function constructor",
      'return typeof (function(){}).constructor("return typeof process")() === "string" ? (function(){}).constructor("return typeof process + typeof require")() : "x";',
    ],
    ["timers", "return [typeof setTimeout, typeof setInterval, typeof setImmediate, typeof queueMicrotask].join();"],
  ];
  it.each(escapes)("gives the script no %s", async (_, script) => {
    const m = await content(script);
    expect(m?.isError).toBe(false);
    expect(m?.content).toMatch(/^("?)(undefined|)*(,undefined)*\1$|^"undefinedundefined"$/);
  });

  it("refuses import()", async () => {
    const m = await content('return await import("node:fs");');
    expect(m).toMatchObject({ isError: true });
    expect(m?.content).toContain("script ended (script_error)");
  });

  it("keeps prototype pollution inside the sandbox", async () => {
    const m = await content(
      'Object.prototype.polluted = "yes"; Array.prototype.push = null; const r = await tools.add({ a: 1, b: 1, __proto__: { polluted: "no" } }); return r;',
    );
    expect(m?.content).toBe("2");
    expect(({} as { polluted?: string }).polluted).toBeUndefined();
    expect(typeof [].push).toBe("function");
  });

  const runaways: [string, string, string][] = [
    ["for(;;)", "for (;;) {}", "cpu_time"],
    // A builtin that loops without asking the interrupt handler: the thread's hard kill ends it.
    ["a builtin stuck past the interrupt handler", "const a = []; for (let i = 0; ; i++) a.push(new Array(100000).fill(i));", "cpu_time"],
    ["a deep recursion", "function f(n) { return f(n + 1) + 1; } return f(0);", "stack_overflow"],
    ["an uncaught throw", 'throw new Error("boom");', "script_error"],
    ["a syntax error", "return (;", "script_error"],
    ["a value JSON cannot hold", "return 10n;", "result_unserializable"],
  ];
  it.each(runaways)("ends %s with its documented code, and the next script still runs", async (_, script, code) => {
    const m = await content(script);
    expect(m?.isError).toBe(true);
    expect(m?.content).toContain(`script ended (${code})`);
    expect((await content("return 1 + 1;"))?.content).toBe("2");
  });

  it("ends a memory bomb with memory, and the next script still runs", async () => {
    const small = codeMode({ tools, limits: { cpuMs: 20_000, memoryBytes: 4 * 1024 * 1024 } });
    try {
      const m = (await runScript(small.tool, "let a = [1]; for (;;) a = a.concat(a);")).messages[0];
      expect(m?.content).toContain("script ended (memory)");
      expect((await runScript(small.tool, "return 1 + 1;")).messages[0]?.content).toBe("2");
    } finally {
      await small.close();
    }
  });

  it("freezes Date and seeds Math.random", async () => {
    const m = JSON.parse((await content("return [Date.now() === new Date().getTime(), typeof Math.random(), Date.now() === Date.now()];"))?.content ?? "");
    expect(m).toEqual([true, "number", true]);
  });
});

describe("codeMode limits", () => {
  const tight = codeMode({ tools, limits: { maxScriptBytes: 200, maxCalls: 3, maxResultBytes: 50 } });
  afterAll(() => tight.close());
  const cases: [string, string, string][] = [
    ["script size", `return "${"x".repeat(200)}";`, "script_too_large"],
    ["number of nested calls", "for (let i = 0; i < 4; i++) await tools.add({ a: i, b: 0 }); return 0;", "too_many_calls"],
    ["result size", 'return "y".repeat(60);', "result_too_large"],
  ];
  it.each(cases)("ends a script past its %s", async (_, script, code) => {
    const m = (await runScript(tight.tool, script)).messages[0];
    expect(m?.isError).toBe(true);
    expect(m?.content).toContain(`script ended (${code})`);
  });

  it("refuses bad options with a TypeError naming the option", () => {
    expect(() => codeMode({ tools, limits: { cpuMs: 0 } })).toThrow(/`limits.cpuMs`/);
    expect(() => codeMode({ tools, limits: { cpu: 5 } as never })).toThrow(/`limits.cpu`/);
    expect(() => codeMode({ tools, threads: 1.5 })).toThrow(/`threads`/);
    expect(() => codeMode({ tools: "add" as never })).toThrow(/`tools`/);
    expect(() => codeMode({ tools: [...tools, ...tools] })).toThrow(/distinct names/);
    expect(() => codeMode({ tools, name: "" })).toThrow(/`name`/);
  });
});

describe("codeMode nested calls", () => {
  it("reports every nested call's events on the parent's call as nested events", async () => {
    const nested: string[] = [];
    await runToolCalls([{ id: "n1", name: "run_script", arguments: { script: "return await tools.add({ a: 2, b: 3 });" } }], [code.tool], {
      onCallReport: (report) => {
        if (report.type === "nested_event") nested.push(`${report.toolCallId}:${(report.event as ToolEvent).type}:${(report.event as ToolEvent).toolCallId}`);
      },
    });
    expect(nested).toEqual(["n1:tool_execution_started:n1.0", "n1:tool_execution_completed:n1.0", "n1:tool_result_encoded:n1.0"]);
  });

  it("gives nested calls the runner's deadline, whose timeout the script reads as a reason", async () => {
    const slow = defineTool({
      name: "slow",
      description: "",
      schema: z.object({}),
      handler: (_, ctx) => new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve(ok("late")))),
    });
    const timed = codeMode({ tools: [slow], run: { toolTimeout: 50 } });
    try {
      const m = (await runScript(timed.tool, "try { await tools.slow({}); } catch (e) { return e.reason; }")).messages[0];
      expect(m?.content).toBe("timeout");
    } finally {
      await timed.close();
    }
  });

  it("retries an idempotent nested call and runs the tool's hooks, as the runner does for a direct call", async () => {
    let attempts = 0;
    const flaky = defineTool({
      name: "flaky",
      description: "",
      schema: z.object({}),
      control: { idempotent: true },
      handler: () => {
        attempts++;
        if (attempts === 1) throw new Error("blip");
        return ok("fine");
      },
    });
    const seen: string[] = [];
    const retried = codeMode({
      tools: [flaky],
      run: {
        retry: { attempts: 2, delay: 1, jitter: false },
        hooks: [
          {
            before: (_args, ctx) => {
              seen.push(`before ${ctx.toolCall.id}`);
            },
            after: (_result, _args, ctx) => {
              seen.push(`after ${ctx.toolCall.id}`);
            },
          },
        ],
      },
    });
    try {
      const m = (await runScript(retried.tool, "return await tools.flaky({});")).messages[0];
      expect(m?.content).toBe("fine");
      expect(attempts).toBe(2);
      expect(seen).toEqual(["before s1.0", "after s1.0", "before s1.0", "after s1.0"]);
    } finally {
      await retried.close();
    }
  });

  it("stops a script whose calls differ from its record on resume", async () => {
    const record = { baseId: "r1", now: 0, seed: 1, calls: [{ seq: 0, name: "add", args: '{"a":1,"b":1}', answer: { ok: true, text: "2" }, delivered: true }] };
    const resume = { tool: "run_script", haltedReason: "approval_required", metadata: { codeMode: record }, messages: [], round: 0 };
    const before = runs.add ?? 0;
    const result = await runToolCalls(
      [
        {
          id: "r1-resume1",
          name: "run_script",
          arguments: { script: "return await tools.add({ a: 1, b: 2 });" },
          metadata: { "toolrx.subagentResume": resume },
        },
      ],
      [code.tool],
    );
    expect(result.messages[0]?.content).toContain("script ended (diverged)");
    expect(runs.add ?? 0).toBe(before);
  });

  it("describes the tools to the model as TypeScript declarations", () => {
    expect(code.declarations).toContain("add(args: {\n    a: number;\n    b: number;\n  }): Promise<unknown>;");
    expect(code.tool.description).toContain(code.declarations);
  });
});
