import { vi } from "vitest";
import { z } from "zod";
import { defineTool, ok, type ToolCall } from "../../../src/index.js";

/** A transfer that needs approval (or as `needsApproval` says), its handler a spy. */
export function transferTool(needsApproval: boolean | ((args: { eur: number }) => boolean) = true) {
  const handler = vi.fn(({ eur }: { eur: number }) => ok({ sent: eur }));
  return { handler, tool: defineTool({ name: "transfer", description: "", schema: z.object({ eur: z.number() }), needsApproval, handler }) };
}

/** A sibling that needs no approval. */
export const echo = defineTool({ name: "echo", description: "", schema: z.object({ text: z.string() }), handler: ({ text }) => ok(text) });

/** A batch of a transfer (t1) and an echo (e1). */
export const calls: ToolCall[] = [
  { id: "t1", name: "transfer", arguments: { eur: 250 } },
  { id: "e1", name: "echo", arguments: { text: "hi" } },
];
