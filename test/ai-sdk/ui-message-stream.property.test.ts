import { readUIMessageStream, uiMessageChunkSchema, type UIMessage, type UIMessageChunk } from "ai";
import fc from "fast-check";
import { lastValueFrom, tap, toArray } from "rxjs";
import { describe, expect, it } from "vitest";
import { fromUIMessages, toUIMessageChunks } from "../../src/ai-sdk/index.js";
import { streamAgent, type AgentHaltedEvent, type Message } from "../../src/index.js";
import { checkConversation, openai } from "../../src/providers/index.js";
import { random, scenarioArb, scenarioOptions } from "../support/agent-scenarios.js";

// Issue 31: the AI SDK's own client code reads toolrx's stream without an error for random runs,
// and the messages it builds, posted back, are the conversation the loop holds.

const RUNS = Number(process.env.TOOLRX_PROPERTY_RUNS ?? 100);
const schema = uiMessageChunkSchema();

/** A conversation as the model sees it: no host bookkeeping, no empty turn, its reasoning, and each turn's calls and answers in id order (the page learns of calls in the order they start). */
function canonical(messages: readonly Message[]): unknown[] {
  const out: unknown[] = [];
  let tools: { id: string; content: string; isError: boolean }[] = [];
  const flush = () => {
    out.push(...tools.sort((a, b) => a.id.localeCompare(b.id)));
    tools = [];
  };
  for (const m of messages) {
    if (m.role === "tool") {
      tools.push({ id: m.toolCallId, content: m.content, isError: m.isError });
      continue;
    }
    flush();
    if (m.role === "approval") continue;
    if (m.role !== "assistant") out.push({ role: m.role, content: m.content });
    else if (m.content !== "" || (m.toolCalls?.length ?? 0) > 0 || m.metadata !== undefined || m.reasoning !== undefined) {
      const calls = (m.toolCalls ?? []).map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })).sort((a, b) => a.id.localeCompare(b.id));
      out.push({ role: "assistant", content: m.content, calls, metadata: m.metadata, reasoning: m.reasoning });
    }
  }
  flush();
  return out;
}

/** The conversation with a stand-in answer for each call still waiting for the host, where the loop puts the host's answers. */
function withStandIns(messages: readonly Message[]): Message[] {
  const answered = new Set(messages.flatMap((m) => (m.role === "tool" ? [m.toolCallId] : [])));
  const out = messages.slice();
  for (let i = out.length - 1; i >= 0; i--) {
    const m = out[i] as Message;
    if (m.role !== "assistant" || m.toolCalls === undefined) continue;
    let at = i + 1;
    while (out[at]?.role === "tool") at++;
    const waiting = m.toolCalls.filter((call) => !answered.has(call.id));
    out.splice(at, 0, ...waiting.map((call): Message => ({ role: "tool", toolCallId: call.id, name: call.name, content: "stand-in", isError: false })));
  }
  return out;
}

/** Read chunks the way `useChat` does: continuing the last assistant message, if that is the last message. */
async function clientReads(chunks: readonly UIMessageChunk[], messages: UIMessage[]): Promise<{ messages: UIMessage[]; errors: string[] }> {
  const errors: string[] = [];
  const last = messages.at(-1);
  const continued = last?.role === "assistant" ? structuredClone(last) : undefined;
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let message: UIMessage | undefined = continued;
  for await (const m of readUIMessageStream({ message: continued, stream, onError: (e) => errors.push(String(e)) })) message = m;
  const before = continued === undefined ? messages : messages.slice(0, -1);
  return { messages: message === undefined ? before : [...before, structuredClone(message)], errors };
}

/** What a person does on the page before the next request: decide approvals, answer questions and manual calls, maybe say more. */
function answerOnPage(messages: UIMessage[], halted: AgentHaltedEvent<string>, rand: () => number): UIMessage[] {
  const manual = new Set(((halted.metadata as { manualToolCalls?: { id: string }[] }).manualToolCalls ?? []).map((c) => c.id));
  const asked = new Set<string>();
  let says = rand() < 0.4;
  const out = structuredClone(messages);
  const last = out.at(-1);
  if (last?.role === "assistant") {
    for (const p of last.parts) if (p.type === "data-ask-user") asked.add((p.data as { toolCallId: string }).toolCallId);
    for (const p of last.parts) {
      if (!(p.type.startsWith("tool-") || p.type === "dynamic-tool")) continue;
      const part = p as { toolCallId: string; state: string; output?: unknown; approval?: Record<string, unknown> };
      if (part.state === "approval-requested" && rand() < 0.85) {
        const approved = rand() < 0.7;
        part.state = "approval-responded";
        part.approval = { ...part.approval, approved, ...(approved ? {} : { reason: "no" }) };
      } else if (part.state === "input-available" && asked.has(part.toolCallId)) {
        if (rand() < 0.5) {
          part.state = "output-available";
          part.output = "Blue.";
        } else says = true;
      } else if (part.state === "input-available" && manual.has(part.toolCallId) && rand() < 0.85) {
        part.state = "output-available";
        part.output = rand() < 0.5 ? `done ${part.toolCallId}` : { done: part.toolCallId };
      }
    }
  }
  if (says) out.push({ id: `u${out.length}`, role: "user", parts: [{ type: "text", text: "Go on." }] });
  return out;
}

describe("toUIMessageChunks, read by the AI SDK's client", () => {
  it(`gives valid chunks that useChat's reader applies without an error, and messages that convert back to the loop's conversation (${RUNS} scenarios)`, async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (s) => {
        const { runs, options } = scenarioOptions(s);
        const rand = random(s.seed);
        let page: UIMessage[] = [{ id: "u0", role: "user", parts: [{ type: "text", text: "Start." }] }];
        for (let round = 0; round < 5; round++) {
          const messages = fromUIMessages(page);
          let halted: AgentHaltedEvent<string> | undefined;
          const run = { ...options, messages };
          const chunks = await lastValueFrom(
            streamAgent(run).pipe(
              tap((e) => {
                if (e.type === "agent_halted") halted = e;
              }),
              toUIMessageChunks({ originalMessages: page }),
              toArray(),
            ),
          );
          for (const chunk of chunks) {
            const valid = await schema.validate?.(chunk);
            expect(valid?.success, JSON.stringify(chunk)).toBe(true);
          }
          const read = await clientReads(chunks, page);
          const ended = halted as AgentHaltedEvent<string>;
          expect(read.errors).toEqual(ended.haltedReason === "error" ? ["Error: An error occurred."] : []);
          page = read.messages;
          const back = fromUIMessages(page);
          expect(canonical(back)).toEqual(canonical(ended.messages));
          expect(checkConversation(openai.toChatMessages(withStandIns(back)), "openai-chat")).toEqual([]);
          page = answerOnPage(page, ended, rand);
        }
        for (const [id, n] of runs) expect([id, n]).toEqual([id, 1]);
      }),
      { numRuns: RUNS },
    );
  }, 240_000);
});
