import { describe, expect, it } from "vitest";
import { ClientSession } from "../support/ag-ui-sweep.js";
import { sweepRandomly, userAction, walk } from "../support/ui-sweep.js";

// Issue 43: every action of an AG-UI client, through @ag-ui/client's HttpAgent against toolrx's
// AG-UI route, each run judged by the client's verifyEvents and @ag-ui/core's schemas.

describe("@ag-ui/client's HttpAgent on toolrx's AG-UI route, through every action of a client", () => {
  it("approves, denies, answers, writes instead of answering, reloads, and sends a failure back failed: every run verifies", async () => {
    const session = new ClientSession("thread-sweep");
    const log = await walk(session, [
      { kind: "send", text: "pay" },
      { kind: "approve" },
      { kind: "send", text: "pay" },
      { kind: "deny" },
      { kind: "send", text: "ask" },
      { kind: "approve" },
      { kind: "send", text: "both" },
      { kind: "type" },
      { kind: "send", text: "fail" },
      { kind: "send", text: "pay" },
      { kind: "reload" },
      { kind: "send", text: "hello" },
      { kind: "approve" },
      { kind: "send", text: "hello" },
    ]);
    expect(log).toEqual([
      "send pay",
      "approve",
      "send pay",
      "deny",
      "send ask",
      "approve",
      "send both",
      "type",
      "send fail",
      "send pay",
      "reload",
      "send hello",
      "approve",
      "send hello",
    ]);
    // The approved calls ran once each; the denied one, and the one written over, never.
    expect(session.ran).toEqual(["pay-1", "pay-7"]);
  });

  it("holds for random sequences of a client's actions", async () => {
    const action = userAction(["pay", "ask", "fail", "both", "hello"], ["approve", "deny", "type", "reload"]);
    await sweepRandomly(action, (n) => new ClientSession(`thread-${n}`));
  }, 120_000);
});
