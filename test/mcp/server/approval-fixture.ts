import { afterEach, vi } from "vitest";
import { z } from "zod";
import { defineTool, ok } from "../../../src/index.js";

/**
 * What the tests of `serveTools` and `needsApproval` share (serve-approval, over memory transports
 * of both SDK lines; serve-approval-http, over the 2.x web handler): a tool that needs approval and
 * records what it paid, the user who approves, and the servers and clients to close after each test.
 */
export type Answer = (params: { message: string; requestedSchema: unknown }) => unknown;

/** What the paying tools paid in the current test. */
export const paid: number[] = [];
/** Closes a test's clients and servers. */
export const closers: (() => Promise<void>)[] = [];
/** A user who approves every call. */
export const approve = vi.fn<Answer>(() => ({ action: "accept", content: { approve: true } }));

/** Registers the reset of `paid`, `closers` and `approve` after each test of the calling file. */
export function resetAfterEach(): void {
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((c) => c().catch(() => {})));
    paid.splice(0);
    approve.mockClear();
  });
}

export const pay = defineTool({
  name: "pay",
  description: "Pay an invoice",
  schema: z.object({ amount: z.number() }),
  needsApproval: true,
  handler: ({ amount }) => {
    paid.push(amount);
    return ok(`paid ${amount}`);
  },
});
export const payOver100 = defineTool({
  name: "pay",
  description: "Pay an invoice",
  schema: z.object({ amount: z.number() }),
  needsApproval: ({ amount }) => amount > 100,
  handler: ({ amount }) => {
    paid.push(amount);
    return ok(`paid ${amount}`);
  },
});
/** A CallToolResult of one text block. */
export const text = (t: string, isError: boolean) => ({ content: [{ type: "text", text: t }], isError });
