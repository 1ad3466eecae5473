/**
 * The batch's checks run before the pool is built (calls → checks → pool). Which check fails
 * first is part of the contract: the stream's one error names the first problem, in the order
 * unknown tool, approval that answers no call, tools the index refuses; looking a name up
 * indexes a resolver's tools, so with unknown tools failing the batch a refused list comes first.
 */
import { lastValueFrom, toArray } from "rxjs";
import { describe, expect, it, vi } from "vitest";
import { defineTool, EngineError, ok, streamToolCalls, toolResolver, type ToolEvent } from "../../../src/index.js";
import { checkBatch } from "../../../src/run/checks/index.js";
import { resolveOptions, toolSource } from "../../../src/run/options/index.js";
import { snapshotCalls } from "../../../src/run/checks/index.js";
import { anyArgs, call } from "../../support/helpers.js";

const handler = vi.fn(() => ok("ran"));
const tool = (name: string) => defineTool({ name, description: "", schema: anyArgs, handler });
/** A resolver whose list the index refuses (two tools named "a"), read only once the stream is subscribed. */
const refused = { ...toolResolver([tool("a")]), availableTools: () => [tool("a"), tool("a")] };
const strayApproval = { approvals: [{ role: "approval" as const, toolCallId: "nobody", approved: true }] };

async function errorOf(events: Promise<ToolEvent[]>): Promise<unknown> {
  return events.then(
    () => "completed",
    (e: unknown) => e,
  );
}

describe("the batch's checks", () => {
  describe("when a call names an unknown tool and an approval answers no call", () => {
    it("errors the stream with the unknown tool, and runs nothing", async () => {
      const events = lastValueFrom(streamToolCalls([call("1", "a"), call("2", "nope")], [tool("a")], strayApproval).pipe(toArray()));
      const e = await errorOf(events);
      expect(e).toBeInstanceOf(EngineError);
      expect(String(e)).toBe("EngineError: tool nope not in tools; available tools: a");
      expect(handler).not.toHaveBeenCalled();
    });
  });

  describe("when a resolver's tools are refused as well", () => {
    it("errors the stream with the index's TypeError: finding the unknown tool indexes them", async () => {
      const events = lastValueFrom(streamToolCalls([call("1", "nope")], refused, strayApproval).pipe(toArray()));
      expect(String(await errorOf(events))).toMatch(/^TypeError: Two tools are named "a"/);
      expect(handler).not.toHaveBeenCalled();
    });
  });

  describe("when unknown tools are answered instead", () => {
    it("errors the stream with the approval that answers no call, before the tools are indexed", async () => {
      const availableTools = vi.spyOn(refused, "availableTools");
      const events = lastValueFrom(streamToolCalls([call("1", "nope")], refused, { ...strayApproval, onUnknownTool: "answer" }).pipe(toArray()));
      expect(await errorOf(events)).toMatchObject({ name: "ApprovalMismatchError", reason: "not_pending", toolCallId: "nobody" });
      expect(availableTools).not.toHaveBeenCalled();
      availableTools.mockRestore();
    });
  });

  describe("when only the tools are wrong", () => {
    it("errors the stream with the index's TypeError", async () => {
      const events = lastValueFrom(streamToolCalls([call("1", "a")], refused, { onUnknownTool: "answer" }).pipe(toArray()));
      expect(String(await errorOf(events))).toMatch(/^TypeError: Two tools are named "a"/);
      expect(handler).not.toHaveBeenCalled();
    });
  });
});

describe("checkBatch", () => {
  const batch = snapshotCalls([call("1", "a"), call("2", "b")]);

  it("passes a batch whose tools exist, answering nothing", () => {
    const env = resolveOptions(undefined, batch.length);
    expect(checkBatch(batch, toolSource([tool("a"), tool("b")], env), env)).toBeUndefined();
  });

  it("indexes a resolver's tools itself, so the pool is handed a checked tool list", () => {
    const env = resolveOptions({ onUnknownTool: "answer" }, batch.length);
    expect(() => checkBatch(batch, toolSource(refused, env), env)).toThrow(/^Two tools are named "a": availableTools\(\)\[0\] and availableTools\(\)\[1\]/);
  });
});
