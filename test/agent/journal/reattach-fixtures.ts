import { Observable } from "rxjs";
import { z } from "zod";
import {
  defineTool,
  type HandlerResult,
  type JournalEntry,
  type JournalReattach,
  type MemoryJournalStore,
  type Message,
  type ModelEvent,
  type ModelRequest,
  ok,
  streamAgent,
  type AgentEvent,
  type AgentOptions,
} from "../../../src/index.js";

// The model, remote tool and crash of the journal.reattach tests (journal-reattach.test.ts, journal-reattach-calls.test.ts).

/** The conversation every run starts from. */
export const input: Message[] = [{ role: "user", content: "go" }];

/** Turn 0 calls `remote` (id c1); turn 1 ends. */
export const model = (request: ModelRequest) =>
  new Observable<ModelEvent>((subscriber) => {
    if (request.messages.some((m) => m.role === "tool")) subscriber.next({ type: "text_delta", text: "done" });
    else subscriber.next({ type: "tool_call", call: { id: "c1", name: "remote", arguments: { n: 1 } } });
    subscriber.complete();
  });

/**
 * A tool whose work lives elsewhere: a fresh call reports the handles `names` (as an MCP task call
 * reports its task id) and hangs, as if its process died; a call carrying `metadata.follow` follows that work.
 */
export function remoteTool(names: readonly string[]) {
  const started: number[] = [];
  const followed: unknown[] = [];
  const tool = defineTool({
    name: "remote",
    description: "",
    schema: z.object({ n: z.number() }),
    handler: ({ n }, ctx) => {
      const follow = ctx.toolCall.metadata?.follow;
      if (follow !== undefined) {
        followed.push(follow);
        return ok(`followed ${String(follow)}`);
      }
      started.push(n);
      for (const [i, name] of names.entries()) ctx.progress({ progress: i + 1, data: { handle: name } });
      return new Promise<HandlerResult>(() => {});
    },
  });
  return { tool, started, followed };
}

/** Handles from progress reports' `data.handle`; a cut-off call follows its handle through `metadata.follow`. */
export const reattach: JournalReattach = {
  handleOf: (report) => (report.type === "progress" ? (report.data as { handle?: string } | undefined)?.handle : undefined),
  callOf: (call, handle) => ({ ...call, metadata: { ...call.metadata, follow: handle } }),
};

/** Run until the journal holds `handles` handle entries, then stop as a crash would (no ending recorded). */
export async function crashOnceRecorded(options: AgentOptions, store: MemoryJournalStore, handles: number): Promise<void> {
  await new Promise<void>((resolve) => {
    const subscription = streamAgent(options).subscribe((e: AgentEvent) => {
      if (e.type !== "call_report") return;
      queueMicrotask(() => {
        if (entriesOf(store).filter((x) => x.type === "handle").length < handles) return;
        subscription.unsubscribe();
        resolve();
      });
    });
  });
}

/** The entries of conversation `conv`, read as its next owner would. */
export function entriesOf(store: MemoryJournalStore): readonly JournalEntry[] {
  return store.acquire("conv", "p1", 30_000);
}
