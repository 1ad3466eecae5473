import { readFileSync } from "node:fs";
import { expect } from "vitest";
import type { Message } from "../../src/index.js";
import { anthropic, checkConversation, openai } from "../../src/providers/index.js";
import type { SeamCall, SeamKind, SeamScenario, SeamWorld } from "./seam-harness.js";

/** The planned call a model's call stands for. */
function plannedOf(call: { name: string; arguments: Record<string, unknown> }): SeamCall {
  if (call.name === "run_script") return { kind: "code", n: Number(/n: (\d+)/.exec(String(call.arguments.script))?.[1]) };
  return { kind: call.name as SeamKind, n: Number(call.arguments.n) };
}

/** Kinds whose call, cut off by a kill, is answered with its fate unknown (the others are sent again or re-attached). */
const fateUnknownKinds = new Set<SeamKind>(["local", "approve", "ask", "repair", "thread", "code"]);

/**
 * The seam property's invariants on the conversation a scenario ended with: it reads as an
 * uninterrupted run, no handler that is not idempotent ran twice, every call is answered once (with
 * its result, or its fate unknown where a kill cut it off), and every provider's rules hold.
 */
export function checkSeamFinal(world: SeamWorld, scenario: SeamScenario, final: readonly Message[]): void {
  const { plan } = scenario;
  // Ends as an uninterrupted run: after every planned turn, the script's last words.
  expect(final.at(-1)).toEqual({ role: "assistant", content: `done after ${plan.length} turns` });
  // No non-idempotent handler ran twice, wherever it ran.
  const lines = readFileSync(world.effects, "utf8").split("\n");
  for (const { kind, n } of plan.flat()) {
    const ran = lines.filter((l) => l === `${kind} ${n}`).length;
    if (kind !== "idempotent") expect(ran, `${kind} ${n} ran ${ran} times`).toBeLessThanOrEqual(1);
  }
  // Every call answered exactly once, with its result or (where it was cut off) its fate unknown.
  const calls = final.flatMap((m) => (m.role === "assistant" ? (m.toolCalls ?? []) : []));
  const answers = final.flatMap((m) => (m.role === "tool" ? [m] : []));
  expect(answers.map((a) => a.toolCallId).sort()).toEqual(calls.map((c) => c.id).sort());
  for (const call of calls) {
    const answer = answers.find((a) => a.toolCallId === call.id);
    const { kind, n } = plannedOf(call);
    if (answer?.isError === true) {
      expect(fateUnknownKinds.has(kind), `${kind} ${n}: ${answer.content}`).toBe(true);
      expect(answer.content).toContain("handler_exit");
    } else if (kind !== "ask") expect(answer?.content).toBe(`${kind} ${n} done`);
  }
  expect(checkConversation(openai.toChatMessages(final), "openai-chat")).toEqual([]);
  expect(checkConversation(openai.toResponsesInput(final), "openai-responses")).toEqual([]);
  expect(checkConversation(anthropic.toMessages(final).messages, "anthropic")).toEqual([]);
}
