import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ClientSession, type ClientAction } from "../support/ag-ui-sweep.js";

// Issue 43: every action of an AG-UI client, through @ag-ui/client's HttpAgent against toolrx's
// AG-UI route, each run judged by the client's verifyEvents and @ag-ui/core's schemas.

const RUNS = Number(process.env.TOOLRX_PROPERTY_RUNS ?? 60);

async function walk(threadId: string, actions: readonly ClientAction[]): Promise<{ log: string[]; session: ClientSession }> {
  const session = new ClientSession(threadId);
  const log: string[] = [];
  for (const action of actions) {
    const done = await session.act(action);
    if (done === "") continue;
    log.push(done);
    const problems = session.problems();
    if (problems.length > 0) throw new Error(`after ${log.join(" → ")}: ${problems.join("; ")}`);
  }
  return { log, session };
}

describe("@ag-ui/client's HttpAgent on toolrx's AG-UI route, through every action of a client", () => {
  it("approves, denies, answers, writes instead of answering, reloads, and sends a failure back failed: every run verifies", async () => {
    const { log, session } = await walk("thread-sweep", [
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
    const action: fc.Arbitrary<ClientAction> = fc.oneof(
      fc.record({ kind: fc.constant("send" as const), text: fc.constantFrom("pay", "ask", "fail", "both", "hello" as const) }),
      fc.record({ kind: fc.constantFrom("approve", "deny", "type", "reload" as const) }),
    );
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 10 }), async (actions) => {
        await walk(`thread-${n++}`, actions);
      }),
      { numRuns: RUNS },
    );
  }, 120_000);
});
