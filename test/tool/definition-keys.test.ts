/**
 * A tool definition with a key `defineTool` does not know is refused where it is written: a typo
 * (`needApproval`), another SDK's name (`execute`) or a run option (`toolTimeout`) would
 * otherwise be ignored and the tool would run without what its author asked for.
 */
import { describe, expect, it } from "vitest";
import { defineTool, ok, runToolCalls, type Tool } from "../../src/index.js";
import { anyArgs, call } from "../support/helpers.js";

const base = { name: "pay", description: "", schema: anyArgs, handler: () => ok("paid") };
const define = (extra: Record<string, unknown>) => () => defineTool({ ...base, ...extra } as never);

describe("defineTool", () => {
  describe("when the definition has a key it does not know", () => {
    it.each([
      ["needApproval", true, "needsApproval"],
      ["execute", () => ok(1), "handler"],
      ["toolTimeout", 1_000, "control.timeout"],
      ["timeout", 1_000, "control.timeout"],
      ["parameters", {}, "schema"],
      ["mannual", true, "manual"],
      ["metdata", {}, "metadata"],
    ])("refuses `%s` (given %s), naming `%s` as meant", (key, value, meant) => {
      expect(define({ [key]: value })).toThrow(TypeError);
      expect(define({ [key]: value })).toThrow(
        new RegExp(
          `^Unknown key \`${key}\` in tool "pay" \\(did you mean \`${meant.replace(".", "\\.")}\`\\?\\); the keys are \`name\`, \`description\`, \`schema\`, \`handler\`, \`manual\`, \`metadata\`, \`control\`, \`needsApproval\`, \`hooks\`$`,
        ),
      );
    });

    it("without a near key, lists the keys there are", () => {
      expect(define({ colour: "blue" })).toThrow(
        'Unknown key `colour` in tool "pay"; the keys are `name`, `description`, `schema`, `handler`, `manual`, `metadata`, `control`, `needsApproval`, `hooks`',
      );
    });
  });

  describe("when `control` has a key it does not know", () => {
    it.each([
      ["concurency", 2, "concurrency"],
      ["maxConcurrency", 2, "concurrency"],
      ["toolTimeout", 1_000, "timeout"],
      ["idempotant", true, "idempotent"],
      ["idleTimout", 1_000, "idleTimeout"],
    ])("refuses `%s` (given %s), naming `%s` as meant", (key, value, meant) => {
      expect(define({ control: { [key]: value } })).toThrow(
        new RegExp(
          `^Unknown key \`${key}\` in \`control\` of tool "pay" \\(did you mean \`${meant}\`\\?\\); the keys are \`concurrency\`, \`idempotent\`, \`retry\`, \`timeout\`, \`idleTimeout\`, \`outputBudget\`, \`executor\`$`,
        ),
      );
    });

    it("refuses an unknown key of its retry policy, naming it", () => {
      expect(define({ control: { idempotent: true, retry: { attempts: 3, jiter: false } } })).toThrow(
        /^Unknown key `jiter` in `control.retry` of tool "pay" \(did you mean `jitter`\?\)/,
      );
    });

    it("refuses it on a tool written as a plain object too, before any call runs", async () => {
      let ran = false;
      const tool = {
        ...defineTool(base),
        name: "pay",
        control: { concurency: 1 },
        handler: () => {
          ran = true;
          return ok(1);
        },
      } as unknown as Tool;
      await expect(runToolCalls([call("c1", "pay")], [tool])).rejects.toThrow(/^Unknown key `concurency` in `control` of tool "pay"/);
      expect(ran).toBe(false);
    });
  });

  it("accepts every documented key", async () => {
    const tool = defineTool({
      ...base,
      manual: false,
      metadata: { a: 1 },
      needsApproval: false,
      control: { concurrency: 2, idempotent: true, retry: { attempts: 2, random: () => 0.5 }, timeout: 1_000, idleTimeout: 500 },
    });
    expect((await runToolCalls([call("c1", "pay")], [tool])).messages[0]?.content).toBe("paid");
  });
});

describe("RunOptions.retry", () => {
  it("refuses an unknown key of the run's retry policy the same way", async () => {
    const tool = defineTool(base);
    await expect(runToolCalls([call("c1", "pay")], [tool], { retry: { attempts: 2, atempts: 3 } as never })).rejects.toThrow(
      /^Unknown key `atempts` in `retry` \(did you mean `attempts`\?\)/,
    );
  });
});
