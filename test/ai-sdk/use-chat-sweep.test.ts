import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PageSession, type PageAction } from "../support/use-chat-sweep.js";

// Issue 43: every user action the useChat page offers, driven through useChat's own Chat over
// DefaultChatTransport against toolrx's route, judged after each by `ai`'s validateUIMessages.

const RUNS = Number(process.env.TOOLRX_PROPERTY_RUNS ?? 60);

async function walk(chatId: string, actions: readonly PageAction[]): Promise<string[]> {
  const session = new PageSession(chatId);
  const log: string[] = [];
  for (const action of actions) {
    const done = await session.act(action);
    if (done === "") continue;
    log.push(done);
    if (process.env.SWEEP_DEBUG)
      console.log(done, JSON.stringify(session.chat.messages.map((m) => m.parts.map((p) => (p as { state?: string }).state ?? p.type))));
    const problems = await session.problems();
    if (problems.length > 0) throw new Error(`after ${log.join(" → ")}: ${problems.join("; ")}`);
  }
  return log;
}

const send = (text: "pay" | "ask" | "work" | "both" | "hello", thenStop = false): PageAction => ({ kind: "send", text, thenStop });

describe("useChat's Chat on toolrx's route, through every action of the page", () => {
  it("approves, denies, answers, types instead of deciding or answering, stops one call, reloads: the history validates after each", async () => {
    const log = await walk("sweep", [
      send("pay"),
      { kind: "approve" },
      send("pay"),
      { kind: "deny" },
      send("ask"),
      { kind: "answer" },
      send("pay"),
      send("hello"),
      { kind: "approve" },
      send("ask"),
      send("hello"),
      send("work", true),
      send("work", false),
      send("both"),
      { kind: "reload" },
      { kind: "approve" },
      { kind: "answer" },
      send("pay"),
      { kind: "reload" },
      send("hello"),
      { kind: "deny" },
    ]);
    expect(log).toEqual([
      "send pay",
      "approve pay-1",
      "send pay",
      "deny pay-2",
      "send ask",
      "answer ask-3",
      "send pay",
      "send hello",
      "approve pay-4",
      "send ask",
      "send hello",
      "send work (stop)",
      "send work",
      "send both",
      "reload",
      "approve pay-8",
      "answer ask-9",
      "send pay",
      "reload",
      "send hello",
      "deny pay-10",
    ]);
  }, 60_000);

  it("holds for random sequences of the page's actions", async () => {
    const action: fc.Arbitrary<PageAction> = fc.oneof(
      fc.record({ kind: fc.constant("send" as const), text: fc.constantFrom("pay", "ask", "work", "both", "hello" as const), thenStop: fc.boolean() }),
      fc.record({ kind: fc.constantFrom("approve", "deny", "answer", "reload" as const) }),
    );
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 10 }), async (actions) => {
        await walk(`chat-${n++}`, actions);
      }),
      { numRuns: RUNS },
    );
  }, 120_000);
});
