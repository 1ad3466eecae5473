import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, error, ok, runToolCalls, type Tool } from "../../src/index.js";
import { codeMode } from "../../src/code-mode/index.js";

/**
 * The eight findings of issue 42, one test each: what a hostile script did to the host before
 * the sandbox treated everything the guest controls as hostile.
 */
const stored: number[] = [];
const store = defineTool({
  name: "store",
  description: "Keeps a note",
  schema: z.object({ note: z.string() }),
  handler: ({ note }) => {
    stored.push(note.length);
    return ok(note.length);
  },
});
const lie = defineTool({
  name: "lie",
  description: "Fails with the message it is given",
  schema: z.object({ message: z.string() }),
  handler: ({ message }) => error(message),
});
const slow = defineTool({
  name: "slow",
  description: "Answers after 20 s, or when cancelled",
  schema: z.object({}),
  handler: (_, ctx) =>
    new Promise((resolve) => {
      const timer = setTimeout(() => resolve(ok("late")), 20_000);
      ctx.signal.addEventListener("abort", () => {
        clearTimeout(timer);
        resolve(ok("cancelled"));
      });
    }),
});
const tools: Tool[] = [store, lie, slow];
const code = codeMode({ tools, limits: { cpuMs: 1_000, memoryBytes: 32 * 1024 * 1024 } });
afterAll(() => code.close());

const run = async (script: string, tool: Tool = code.tool) =>
  (await runToolCalls([{ id: "h", name: tool.name, arguments: { script } }], [tool], { toolTimeout: 8_000 })).messages[0];

describe("codeMode against issue 42's findings", () => {
  it("1: answers a script that breaks the guest's JSON, without an exception on the host", async () => {
    expect((await run('JSON.stringify = () => "{not json"; return 1;'))?.content).toBe("1");
    expect((await run('JSON.stringify = () => "{not json"; JSON.parse = () => 7; return await tools.store({ note: "ab" });'))?.content).toBe("2");
    expect((await run("return 1 + 1;"))?.content).toBe("2");
  });

  it("2: leaves no host plumbing in the script's reach, so it cannot forge its ending", async () => {
    const names = "__hostCall __hostEnd __Date __seed __now __state __names".split(" ");
    const seen = await run(
      `return ${JSON.stringify(names)}.filter((n) => { try { return typeof globalThis[n] !== "undefined" || typeof eval(n) !== "undefined"; } catch { return false; } });`,
    );
    expect(seen?.content).toBe("[]");
    const forged = await run('try { __hostEnd(false, "forged", "diverged"); } catch {} return "mine";');
    expect(forged?.content).toBe("mine");
  });

  it("3: ends a script whose nested arguments pass the documented limit, before the host keeps them", async () => {
    stored.length = 0;
    // Each note past the 1 MiB default of one call's arguments.
    const m = await run("const note = 'y'.repeat(2e6); for (let i = 0; i < 99; i++) await tools.store({ note }); return 0;");
    expect(m?.content).toContain("script ended (arguments_too_large)");
    // Each under it, but together past the 8 MiB default of arguments in flight.
    const many = await run("const note = 'y'.repeat(9e5); return await Promise.all(Array.from({ length: 10 }, () => tools.store({ note })));");
    expect(many?.content).toContain("script ended (arguments_too_large)");
    expect(stored).toEqual([]);
  });

  it("4: freezes the clock by every path to Date", async () => {
    const m = await run(
      "const t = Date.now(); return [new Date.prototype.constructor().getTime(), new (Object.getPrototypeOf(new Date(0)).constructor)().getTime(), Reflect.construct(Date.prototype.constructor, []).getTime()].every((v) => v === t);",
    );
    expect(m?.content).toBe("true");
  });

  it("5: keeps a nested failure a ToolCallError whatever its text, and reads no code from a message", async () => {
    const messages = ["upstream database: out of memory", "parser: stack overflow in template", "interrupted"];
    for (const message of messages) {
      const caught = await run(
        `try { await tools.lie({ message: ${JSON.stringify(message)} }); } catch (e) { return [e instanceof ToolCallError, e.reason]; }`,
      );
      expect(caught?.content).toBe('[true,"tool_error"]');
      const uncaught = await run(`await tools.lie({ message: ${JSON.stringify(message)} });`);
      expect(uncaught?.content).toContain("script ended (script_error)");
      const thrown = await run(`throw new Error(${JSON.stringify(message)});`);
      expect(thrown?.content).toContain("script ended (script_error)");
    }
  });

  it("6: ends a microtask flood with cpu_time, every time", async () => {
    const floods = [
      "const f = () => Promise.resolve().then(f); f(); await new Promise(() => {});",
      "const g = async () => { await null; return g(); }; await g();",
    ];
    for (let i = 0; i < 3; i++) for (const flood of floods) expect((await run(flood))?.content).toContain("script ended (cpu_time)");
  });

  it("7: stops work left running after return, so the next script starts within cpuMs + 1 s", async () => {
    // Six ticks after return, past the script's own end: a loop that catches each out-of-memory and allocates again.
    const answered = await run(
      "let p = Promise.resolve(); for (let i = 0; i < 6; i++) p = p.then(() => null); p.then(() => { for (;;) { try { let a = [1]; for (;;) a = a.concat(a); } catch {} } }); return 1;",
    );
    expect(answered?.content).toBe("1");
    const started = Date.now();
    expect((await run("return 2;"))?.content).toBe("2");
    // cpuMs + 1 s is the bound; the rest is a margin for a loaded machine (it waited past 8 s before).
    expect(Date.now() - started).toBeLessThan(1_000 + 1_000 + 1_500);
  });

  it("8: close() ends a running script with killed and answers its call, and one waiting for a thread too", async () => {
    const own = codeMode({ tools, threads: 1 });
    const answers = [run("return await tools.slow({});", own.tool), run("return 1;", own.tool)];
    await new Promise((resolve) => setTimeout(resolve, 500));
    await own.close();
    const unanswered = new Promise((resolve) => setTimeout(() => resolve({ content: "unanswered" }), 3_000));
    for (const answer of answers) expect(((await Promise.race([answer, unanswered])) as { content?: string }).content).toContain("script ended (killed)");
  });
});

describe("codeMode against what the hostile-script hunt found", () => {
  it("answers a call whose arguments are not an object with invalid_arguments, and the script goes on", async () => {
    const scripts = [
      'Object.prototype.toJSON = () => "polluted"; try { await tools.store({ note: "a" }); } catch (e) { return e.reason; }',
      "try { await tools.store(5); } catch (e) { return e.reason; }",
      "try { await tools.store([1]); } catch (e) { return e.reason; }",
      "try { await tools.store(null); } catch (e) { return e.reason; }",
    ];
    stored.length = 0;
    for (const script of scripts) expect((await run(script))?.content).toBe("invalid_arguments");
    // Answered without a run: the tool never saw them.
    expect(stored).toEqual([]);
  });
});
