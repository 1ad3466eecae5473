import { expect } from "vitest";
import { z } from "zod";
import { defineTool, ok, streamAgent, type AgentOptions, type Message, type ModelEvent, type ModelRequest } from "../../../src/index.js";
import { anthropic, checkConversation, openai } from "../../../src/providers/index.js";
import type { DyingProcess } from "../../support/dying-process.js";

// The tools, model and kills of the journal's seam tests (journal-seams.test.ts, journal-endings.test.ts).

/** The user's words every run starts from. */
export const input: Message[] = [{ role: "user", content: "Refund order 7" }];
/** The approval tokens' signing secret. */
export const secret = "s".repeat(32);

/** A refund that needs approval, counted where it runs; `during` runs inside the handler (a kill, say). */
export function refundTool(during: () => void = () => {}) {
  const runs: number[] = [];
  const tool = defineTool({
    name: "refund",
    description: "Refund an order",
    schema: z.object({ order: z.number() }),
    needsApproval: true,
    handler: ({ order }) => {
      runs.push(order);
      during();
      return ok(`refunded ${order}`);
    },
  });
  return { tool, runs };
}

/** A model like OpenAI's (new call ids on every request): after the user's words it calls `name`, after a result it is done. */
export function modelCalling(name: string) {
  let asked = 0;
  const model = (request: ModelRequest): ModelEvent[] => {
    asked++;
    return request.messages.at(-1)?.role === "user"
      ? [{ type: "tool_call", call: { id: `call_${Math.random().toString(36).slice(2)}`, name, arguments: { order: 7 } } }]
      : [{ type: "text_delta", text: "Done." }];
  };
  return { model, asked: () => asked };
}

/** Run in a process that `proc.kill()` stops somewhere inside; resolves once it is dead (or, failing the test, ended). */
export function runUntilKilled(options: AgentOptions, proc: DyingProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      if (!proc.dead) return;
      clearInterval(timer);
      resolve();
    }, 2);
    streamAgent(options).subscribe((e) => {
      if (e.type === "agent_halted" && !proc.dead) {
        clearInterval(timer);
        reject(new Error(`the run ended ${e.haltedReason} before the kill`));
      }
    });
  });
}

/** The conversation passes every provider's own rules, converted by toolrx's converters. */
export function expectValidForEveryProvider(messages: readonly Message[]): void {
  expect(checkConversation(openai.toChatMessages(messages), "openai-chat")).toEqual([]);
  expect(checkConversation(openai.toResponsesInput(messages), "openai-responses")).toEqual([]);
  expect(checkConversation(anthropic.toMessages(messages).messages, "anthropic")).toEqual([]);
}
