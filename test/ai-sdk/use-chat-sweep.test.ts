import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PageSession, type PageAction } from "../support/use-chat-sweep.js";
import { sweepRandomly, userAction, walk } from "../support/ui-sweep.js";

// Issue 43: every user action the useChat page offers, driven through useChat's own Chat over
// DefaultChatTransport against toolrx's route, judged after each by `ai`'s validateUIMessages.

const send = (text: "pay" | "ask" | "work" | "both" | "hello", thenStop = false): PageAction => ({ kind: "send", text, thenStop });

describe("useChat's Chat on toolrx's route, through every action of the page", () => {
  it("approves, denies, answers, types instead of deciding or answering, stops one call, reloads: the history validates after each", async () => {
    const log = await walk(new PageSession("sweep"), [
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
    const action = userAction(["pay", "ask", "work", "both", "hello"], ["approve", "deny", "answer", "reload"], { thenStop: fc.boolean() });
    await sweepRandomly(action, (n) => new PageSession(`chat-${n}`));
  }, 120_000);
});
