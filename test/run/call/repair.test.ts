import { config } from "rxjs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { defineTool, ok, runToolCalls, type CallReport, type RepairToolCall, type ToolCall } from "../../../src/index.js";

const ran: Record<string, unknown>[] = [];
const add = defineTool({
  name: "add",
  description: "adds",
  schema: z.object({ a: z.number(), b: z.number() }),
  handler: (args) => {
    ran.push(args);
    return ok(args.a + args.b);
  },
});
const guarded = defineTool({
  name: "transfer",
  description: "moves money",
  schema: z.object({ amount: z.number() }),
  needsApproval: true,
  handler: (args) => {
    ran.push(args);
    return ok("moved");
  },
});

const call = (args: Record<string, unknown>, id = "c1"): ToolCall => ({ id, name: "add", arguments: args });
/** Numbers sent as strings, the commonest repair. */
const numbers: RepairToolCall = ({ call: c }) =>
  Object.fromEntries(Object.entries(c.arguments).map(([k, v]) => [k, typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v]));

afterEach(() => {
  ran.length = 0;
  config.onUnhandledError = null;
});

describe("repairToolCall", () => {
  describe("when the repair is valid", () => {
    it("runs the handler on the repaired arguments and reports the repair before the call completes", async () => {
      const reports: CallReport[] = [];
      const result = await runToolCalls([call({ a: "2", b: 3 })], [add], { repairToolCall: numbers, onCallReport: (r) => reports.push(r) });
      expect(ran).toEqual([{ a: 2, b: 3 }]);
      expect(result.messages[0]).toMatchObject({ content: "5", isError: false });
      expect(reports).toEqual([
        { type: "repaired", index: 0, toolCallId: "c1", toolName: "add", arguments: { a: 2, b: 3 }, issues: [expect.objectContaining({ path: ["a"] })] },
      ]);
    });

    it("is asked only for calls that failed, with their issues and tool", async () => {
      const asked = vi.fn(numbers);
      await runToolCalls([call({ a: 1, b: 2 }, "ok"), call({ a: "1", b: 2 }, "bad")], [add], { repairToolCall: asked });
      expect(asked).toHaveBeenCalledTimes(1);
      const [failed] = asked.mock.calls[0] as Parameters<RepairToolCall>;
      expect(failed.call.id).toBe("bad");
      expect(failed.tool).toBe(add);
      expect(failed.issues.map((i) => i.path)).toEqual([["a"]]);
    });

    it("waits for an asynchronous repair", async () => {
      const result = await runToolCalls([call({ a: "4", b: "5" })], [add], { repairToolCall: async (f) => numbers(f) });
      expect(result.messages[0]?.content).toBe("9");
    });
  });

  describe("when the repair does not give valid arguments, nothing runs and the model reads its own issues", () => {
    const cases: [string, RepairToolCall][] = [
      ["no repair (undefined)", () => undefined],
      ["a repair that still fails the schema", () => ({ a: "two", b: 3 })],
      ["a repair to empty arguments the schema refuses", () => ({})],
    ];
    for (const [name, repair] of cases) {
      it(name, async () => {
        const result = await runToolCalls([call({ a: "x", b: 3 })], [add], { repairToolCall: repair });
        expect(ran).toEqual([]);
        expect(result.messages[0]).toMatchObject({ isError: true, content: expect.stringContaining("a: Invalid input") });
        expect(result.messages[0]?.content).not.toContain("two");
      });
    }

    it("a repair that returns a class instance, a Map or a revoked Proxy never runs the handler, even when the schema takes it", async () => {
      const unhandled: unknown[] = [];
      config.onUnhandledError = (e) => unhandled.push(e);
      class Repaired {
        a = 1;
        b = 2;
      }
      const revoked = Proxy.revocable({ a: 1, b: 2 }, {});
      revoked.revoke();
      const loose = defineTool({
        name: "add",
        description: "adds",
        schema: z.object({ a: z.number() }).loose(),
        handler: (args) => {
          ran.push(args);
          return ok("ran");
        },
      });
      for (const value of [new Repaired(), new Map([["a", 1]]), revoked.proxy]) {
        for (const tool of [add, loose]) {
          const result = await runToolCalls([call({ a: "1", b: 3 })], [tool], { repairToolCall: () => value as unknown as Record<string, unknown> });
          expect(result.messages[0]).toMatchObject({ isError: true });
        }
      }
      await new Promise((r) => setTimeout(r, 20)); // RxJS reports unhandled errors on a timer
      expect(ran).toEqual([]);
      expect(unhandled).toHaveLength(6);
      for (const e of unhandled) expect(String(e)).toContain("Expected `repairToolCall` to return the repaired arguments as a plain object");
    });

    it("takes a prototype-less object as a plain one", async () => {
      const result = await runToolCalls([call({ a: "1", b: 3 })], [add], { repairToolCall: () => Object.assign(Object.create(null), { a: 1, b: 3 }) });
      expect(result.messages[0]).toMatchObject({ isError: false, content: "4" });
    });

    it("a repair that throws, or returns something other than an object, is answered and reported as unhandled", async () => {
      const unhandled: unknown[] = [];
      config.onUnhandledError = (e) => unhandled.push(e);
      const bad: RepairToolCall[] = [
        () => {
          throw new Error("repair broke");
        },
        () => "a: 1" as unknown as Record<string, unknown>,
        () => null as unknown as Record<string, unknown>,
        async () => Promise.reject(new Error("async repair broke")),
      ];
      for (const repair of bad) {
        const result = await runToolCalls([call({ a: "1", b: 3 })], [add], { repairToolCall: repair });
        expect(result.messages[0]).toMatchObject({ isError: true });
      }
      await new Promise((r) => setTimeout(r, 20));
      expect(ran).toEqual([]);
      expect(unhandled).toHaveLength(4);
      expect(String(unhandled[1])).toContain("Expected `repairToolCall` to return the repaired arguments as a plain object");
    });
  });

  it("never repairs a tool with needsApproval: an approval binds the arguments it was asked for", async () => {
    const repair = vi.fn(() => ({ amount: 5 }));
    const result = await runToolCalls([{ id: "t1", name: "transfer", arguments: { amount: "5" } }], [guarded], {
      repairToolCall: repair,
      approvals: [{ role: "approval", toolCallId: "t1", approved: true }],
    });
    expect(repair).not.toHaveBeenCalled();
    expect(ran).toEqual([]);
    expect(result.messages[0]).toMatchObject({ isError: true });
  });

  it("an asynchronous repair runs within the call's deadline", async () => {
    const result = await runToolCalls([call({ a: "1", b: 1 })], [add], {
      toolTimeout: 30,
      repairToolCall: () => new Promise<undefined>(() => {}),
    });
    expect(ran).toEqual([]);
    expect(result.messages[0]).toMatchObject({ isError: true, content: expect.stringContaining("timeout") });
  });

  it("refuses a repairToolCall that is not a function, before anything runs", async () => {
    await expect(runToolCalls([call({ a: 1, b: 2 })], [add], { repairToolCall: 42 as unknown as RepairToolCall })).rejects.toThrow(
      "Expected `repairToolCall` to be a function",
    );
    expect(ran).toEqual([]);
  });
});
