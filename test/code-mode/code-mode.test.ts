import { afterAll, describe, expect, it } from "vitest";
import { codeMode } from "../../src/code-mode/index.js";
import { countedTools, runScript } from "./helpers.js";

const { runs, tools } = countedTools();
const code = codeMode({ tools, limits: { cpuMs: 300, memoryBytes: 16 * 1024 * 1024 } });
afterAll(() => code.close());

const content = async (script: string) => (await runScript(code.tool, script)).messages[0];

describe("codeMode", () => {
  it("runs a script whose nested calls go through the runner", async () => {
    const m = await content("const x = await tools.add({ a: 1, b: 2 }); const [y, z] = await Promise.all([tools.add({ a: x, b: 1 }), tools.add({ a: 2, b: 2 })]); return { x, y, z };");
    expect(m).toMatchObject({ isError: false, content: '{"x":3,"y":4,"z":4}' });
  });

  it("throws a failed nested call into the script as a ToolCallError with its reason", async () => {
    const m = await content(
      'try { await tools.fail({ why: "nope" }); } catch (e) { return [e instanceof ToolCallError, e.tool, e.reason, e.message]; }',
    );
    expect(JSON.parse(m?.content ?? "")).toEqual([true, "fail", "tool_error", '{"error":"nope"}']);
  });

  it("answers invalid arguments with a typed error, as the runner validates them", async () => {
    const m = await content('try { await tools.add({ a: "1" }); } catch (e) { return e.reason; }');
    expect(m?.content).toBe("invalid_arguments");
  });
});
