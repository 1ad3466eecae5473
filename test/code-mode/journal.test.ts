import { afterAll, describe, expect, it } from "vitest";
import {
  approve,
  MemoryJournalStore,
  runAgent,
  streamAgent,
  type AgentEvent,
  type Message,
  type PendingApproval,
  type SubagentState,
  type ToolEvent,
} from "../../src/index.js";
import { scriptedModel } from "../../src/testing/index.js";
import { codeMode, type CodeMode } from "../../src/code-mode/index.js";
import { countedTools } from "./helpers.js";

const user = (content: string): Message => ({ role: "user", content });
const stop = [{ type: "text_delta" as const, text: "done" }];
const firstTurn = (script: string) => [{ type: "tool_call" as const, call: { id: "c1", name: "run_script", arguments: { script } } }];
const subagentOf = (run: { metadata: unknown }) => (run.metadata as { askUserOpts?: { subagent?: SubagentState } }).askUserOpts?.subagent;
const toolMessage = (messages: readonly Message[], id: string) => messages.find((m) => m.role === "tool" && m.toolCallId === id);

/** A nested call's event, as the agent loop reports it on the code-mode call. */
const nested = (e: AgentEvent): ToolEvent | undefined => (e.type === "subagent_event" ? (e.event as unknown as ToolEvent) : undefined);

/** Run until `until`, then stop the run as a dying process would: nothing more is recorded. */
function crashWhen(options: Parameters<typeof streamAgent>[0], until: (e: AgentEvent) => boolean): Promise<void> {
  return new Promise<void>((resolve) => {
    const subscription = streamAgent(options).subscribe((e) => {
      if (e.type === "agent_halted") resolve();
      else if (until(e))
        queueMicrotask(() => {
          subscription.unsubscribe();
          resolve();
        });
    });
  });
}

describe("codeMode with the durable journal", () => {
  const { runs, tools, clarify } = countedTools();
  const processes: CodeMode[] = [];
  /** Each "process" has its own sandbox threads and model; the handlers' counters outlive them. */
  const process = (turns: Parameters<typeof scriptedModel>[0]) => {
    const code = codeMode({ tools: [...tools, clarify], run: { approvalSecret: "server secret" } });
    processes.push(code);
    return { tools: [code.tool], model: scriptedModel(turns), approvalSecret: "server secret" };
  };
  afterAll(() => Promise.all(processes.map((c) => c.close())));

  it("resumes a script held for an approval in a new process, and a crash after the approved call ran never runs it again", async () => {
    const store = new MemoryJournalStore();
    const journal = { store, conversationKey: "pay-1", owner: "p1" };
    const script = 'const a = await tools.add({ a: 1, b: 2 }); const t = await tools.transfer({ to: "Ana", eur: a }); return { a, t };';
    const held = await runAgent({ ...process([firstTurn(script)]), journal, sessionId: "pay-1", messages: [user("pay Ana")] });
    expect(held.haltedReason).toBe("ask_user");
    const pending = (subagentOf(held)?.metadata.pendingApprovals ?? []) as PendingApproval[];
    const resume = [...held.messages, ...pending.map((p) => approve(p))];

    // The second process dies once the approved transfer has run, before the script's call is recorded as answered.
    await crashWhen(
      { ...process([stop]), journal, sessionId: "pay-1", messages: resume },
      (e) => nested(e)?.type === "tool_result_encoded" && nested(e)?.toolName === "transfer",
    );
    expect(runs).toEqual({ add: 1, transfer: 1 });

    // The third process restarts with the same input: the journal answers the cut-off script's call with its fate unknown.
    const done = await runAgent({ ...process([stop]), journal, sessionId: "pay-1", messages: resume });
    expect(done.haltedReason).toBe("completed");
    expect(runs).toEqual({ add: 1, transfer: 1 });
    const answer = toolMessage(done.messages, "c1-resume1");
    expect(answer).toMatchObject({ isError: true });
    expect(answer?.role === "tool" ? JSON.parse(answer.content).error : "").toMatch(/handler_exit.*unknown/);
  });

  it("resumes a script held for a question in a new process; a restart after it ended plays the ending back, running nothing", async () => {
    const store = new MemoryJournalStore();
    const journal = { store, conversationKey: "ask-1", owner: "p1" };
    const before = { ...runs };
    const script = 'const a = await tools.add({ a: 2, b: 2 }); const who = await tools.clarify({ q: "Who?" }); return { a, who };';
    const held = await runAgent({ ...process([firstTurn(script)]), journal, messages: [user("ask")] });
    expect(held.metadata).toMatchObject({ pendingQuestion: "Who?" });
    const resume = [...held.messages, user("Bo")];
    const done = await runAgent({ ...process([stop]), journal, messages: resume });
    const again = await runAgent({ ...process([]), journal, messages: resume });
    for (const run of [done, again]) {
      expect(run.haltedReason).toBe("completed");
      const answer = toolMessage(run.messages, "c1-resume1");
      expect(answer?.role === "tool" ? JSON.parse(answer.content) : undefined).toEqual({ a: 4, who: "Bo" });
    }
    expect(runs.add).toBe((before.add ?? 0) + 1);
    expect(runs.clarify).toBe((before.clarify ?? 0) + 1);
  });

  it("answers a script cut off mid-run with its fate unknown: its nested calls are not run again, and the script is not re-run", async () => {
    const store = new MemoryJournalStore();
    const journal = { store, conversationKey: "cut-1", owner: "p1" };
    const before = runs.add ?? 0;
    const script = "const a = await tools.add({ a: 5, b: 5 }); const b = await tools.add({ a, b: 1 }); return a + b;";
    await crashWhen({ ...process([firstTurn(script)]), journal, messages: [user("sum")] }, (e) => nested(e)?.type === "tool_result_encoded");
    expect(runs.add).toBe(before + 1);
    const restarted = await runAgent({ ...process([stop]), journal, messages: [user("sum")] });
    expect(restarted.haltedReason).toBe("completed");
    expect(runs.add).toBe(before + 1);
    const answer = toolMessage(restarted.messages, "c1");
    expect(answer?.role === "tool" ? JSON.parse(answer.content).error : "").toMatch(/handler_exit.*unknown/);
  });
});
