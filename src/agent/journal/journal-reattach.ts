import type { CallReport } from "../../run/results/call-report.js";
import type { ToolCall } from "../../tool/tool-call.js";

/**
 * How a kind of remote work that outlives its caller (an MCP task, a job on a queue) is picked up
 * again after a restart, given to `journal.reattach`. Without one, a call that was running when
 * the process stopped is answered with its fate unknown, since running it again might do its
 * work twice; with one, the journal keeps the handle the call reported (a task id) and the
 * restart sends the call that follows that work to its end instead.
 *
 * The core knows no kind of remote work: a subpath that has one exports its own (`toolrx/mcp`:
 * `mcpJournalReattach`).
 *
 * @example
 * import { mcpJournalReattach } from "toolrx/mcp";
 * await runAgent({ model, tools, messages, journal: { store, conversationKey: "conv-7", reattach: mcpJournalReattach } });
 */
export interface JournalReattach {
  /**
   * The handle a call's report names, if any (`undefined` for every other report). It is recorded
   * as the call's handle, the latest one winning, so it must be all the restart needs.
   */
  handleOf(report: CallReport): string | undefined;
  /**
   * The call to send, after a restart, for `call` whose recorded handle is `handle`: one that
   * follows the work it started rather than starting it again. Its `id` and `name` must be `call`'s.
   */
  callOf(call: ToolCall, handle: string): ToolCall;
}
