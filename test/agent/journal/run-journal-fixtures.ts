import type { JournalStore, Message, ToolCall, ToolMessage } from "../../../src/index.js";
import type { JournalEnv } from "../../../src/agent/journal/journal.js";

/** The one run the `RunJournal` tests journal: a user asking to pay, calls to `pay` and their answers. */
export const input: Message[] = [{ role: "user", content: "pay Ana" }];
export const call = (id: string): ToolCall => ({ id, name: "pay", arguments: { id } });
export const answer = (id: string): ToolMessage => ({ role: "tool", toolCallId: id, name: "pay", content: `done ${id}`, isError: false });
/** One turn of the event loop: what a store's pending appends need to settle. */
export const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** A journal's settings on `store`, with a long lease and a short retention unless `more` says otherwise. */
export const env = (store: JournalStore, more: Partial<JournalEnv> = {}): JournalEnv => ({
  store,
  key: "k",
  owner: "w",
  leaseMs: 60_000,
  retainMs: 1_000,
  reattach: undefined,
  fork: false,
  ...more,
});
