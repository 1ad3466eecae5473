import { contextFor } from "../support/helpers.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { askUser, defineTool, ok, streamToolCalls, type HandlerContext } from "../../src/index.js";
import { CODE_MODE_ERROR_CODES, CodeModeError } from "../../src/code-mode/index.js";
import { checkCodeModeOptions } from "../../src/code-mode/code-mode-options.js";
import { readSandboxMessage } from "../../src/code-mode/sandbox-message.js";
import type { LeaseEvent, SandboxLease, SandboxPool } from "../../src/code-mode/sandbox-pool.js";
import { runScript } from "../../src/code-mode/script-run.js";

const t = defineTool({ name: "t", description: "", schema: z.object({ k: z.number() }), handler: ({ k }) => ok(k) });
const { limits } = checkCodeModeOptions({ tools: [t], limits: { maxArgumentBytes: 64, maxInFlightBytes: 128 } });

/** A thread that says whatever the test makes it say: the host must take it as hostile input. */
function fakePool() {
  const seen = { released: 0, killed: 0, answers: 0 };
  let listener: ((message: LeaseEvent) => void) | undefined;
  const lease: SandboxLease = {
    start: (_script, heard) => {
      listener = heard;
    },
    answer: () => {
      seen.answers++;
    },
    release: () => {
      seen.released++;
    },
    kill: () => {
      seen.killed++;
    },
  };
  const pool = { lease: async () => lease } as unknown as SandboxPool;
  return { pool, seen, say: (message: unknown) => listener?.(message as LeaseEvent) };
}

function context(): HandlerContext {
  return contextFor({ id: "c", name: "run_script", arguments: {} });
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("readSandboxMessage", () => {
  it("never throws, and reads back only a message of an exact known shape", () => {
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withBoxedValues: true, withMap: true, withSet: true }), (raw) => {
        const read = readSandboxMessage(raw);
        if (read !== undefined) expect(readSandboxMessage(read)).toEqual(read);
      }),
    );
    expect(readSandboxMessage({ type: "done", ok: false, code: "diverged", message: "forged" })).toBeUndefined();
    expect(readSandboxMessage({ type: "call", seq: -1, name: "t", args: "{}" })).toBeUndefined();
    expect(readSandboxMessage({ type: "call", seq: 0, name: "t", args: {} })).toBeUndefined();
    expect(readSandboxMessage({ type: "done", ok: false, code: "script_error", message: "x".repeat(1e6) })).toEqual({
      type: "done",
      ok: false,
      code: "script_error",
      message: "x".repeat(4_096),
    });
  });
});

describe("runScript against a hostile thread", () => {
  const hostile = fc.oneof(
    fc.record({
      type: fc.constant("call"),
      seq: fc.nat(4),
      name: fc.constantFrom("t", "nope", "__proto__"),
      args: fc.constantFrom('{"k":1}', "{", "5", "null", `{"k":1,"p":"${"x".repeat(100)}"}`),
    }),
    fc.record({ type: fc.constant("done"), ok: fc.constant(true), value: fc.constantFrom("1", "{", '"x"', "x".repeat(300_000)) }),
    fc.record({
      type: fc.constant("done"),
      ok: fc.constant(false),
      code: fc.constantFrom("script_error", "memory", "diverged", "killed"),
      message: fc.string(),
    }),
    fc.record({ type: fc.constant("lost"), code: fc.constantFrom("killed", "cpu_time", "protocol_error"), message: fc.string() }),
    fc.constantFrom({ type: "idle" }, { type: "stopped" }, { type: "ready" }),
  );

  it("ends every script once, with a value or a closed code, and never throws on what a thread says", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(hostile, { maxLength: 8 }), async (messages) => {
        const { pool, seen, say } = fakePool();
        const ended = runScript({ tools: [t], stream: streamToolCalls, pool, limits, run: {}, script: "", ctx: context(), record: undefined, approvals: [] });
        await tick();
        for (const message of messages) {
          say(readSandboxMessage(message) ?? message);
          await tick();
        }
        say({ type: "lost", code: "killed", message: "the test is over" });
        const end = await ended;
        expect(end.type).toBe("result");
        const result = end.type === "result" ? end.result : undefined;
        if (result?.type === "error") {
          expect(result.reason).toBeInstanceOf(CodeModeError);
          expect(CODE_MODE_ERROR_CODES).toContain((result.reason as CodeModeError).code);
        } else expect(result?.type).toBe("ok");
        expect(seen.released + seen.killed).toBe(1);
      }),
    );
  });

  it("ends a script protocol_error and kills its thread on a call out of order, of no tool, or not JSON", async () => {
    for (const call of [
      { type: "call", seq: 3, name: "t", args: '{"k":1}' },
      { type: "call", seq: 0, name: "nope", args: '{"k":1}' },
      { type: "call", seq: 0, name: "t", args: "{" },
    ]) {
      const { pool, seen, say } = fakePool();
      const ended = runScript({ tools: [t], stream: streamToolCalls, pool, limits, run: {}, script: "", ctx: context(), record: undefined, approvals: [] });
      await tick();
      say(call);
      const end = await ended;
      expect(end.type === "result" && end.result.type === "error" && (end.result.reason as CodeModeError).code).toBe("protocol_error");
      expect(seen).toEqual({ released: 0, killed: 1, answers: 0 });
    }
  });
});

describe("runScript against a thread preempted between its posts", () => {
  it("runs every call of one slice before any of them can halt the script: a loaded machine does not change the halt", async () => {
    // Found as a flaky "lists the script's pending approvals with its question" (ask-user.test.ts) under load: the
    // thread posts a slice's calls one by one, and the approval of the first halted the script before the second arrived.
    const transfer = defineTool({ name: "transfer", description: "", schema: z.object({}), needsApproval: true, handler: () => ok(1) });
    const clarify = defineTool({ name: "clarify", description: "", schema: z.object({}), handler: () => askUser("Why?") });
    const tools = [transfer, clarify];
    const { pool, say } = fakePool();
    const ctx = contextFor({ id: "c", name: "run_script", arguments: {} });
    const run = { approvalSecret: "server secret" };
    const ended = runScript({ tools, stream: streamToolCalls, pool, limits, run, script: "", ctx, record: undefined, approvals: [] });
    await tick();
    say({ type: "call", seq: 0, name: "transfer", args: "{}" });
    // The thread is descheduled between its two posts, long enough for the first call to wait for approval.
    await new Promise((resolve) => setTimeout(resolve, 50));
    say({ type: "call", seq: 1, name: "clarify", args: "{}" });
    say({ type: "idle" });
    const end = await ended;
    expect(end.type === "held" && { pending: end.pending.map((p) => p.toolCallId), question: end.question?.question }).toEqual({
      pending: ["c.0"],
      question: "Why?",
    });
  });
});
