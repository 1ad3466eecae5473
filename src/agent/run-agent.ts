import { checkAgentOptions } from "./agent-options.js";
import { agentRuns } from "./stream-agent.js";
import type { AgentOptions, AgentResult } from "./types.js";

/**
 * Run the agent loop to its end and resolve with why it ended and the whole conversation: the
 * same run as `streamAgent`, collected. Every ending is a result, never a rejection
 * (`error`, `cancelled` included); it rejects only for invalid options, with a `TypeError`.
 *
 * @example
 * const r = await runAgent({ model, tools, messages: [{ role: "user", content: "Book Lisbon" }] });
 * if (r.haltedReason === "ask_user") {
 *   const next = await runAgent({ model, tools, messages: [...r.messages, { role: "user", content: "yes" }] });
 * }
 */
export function runAgent(options: AgentOptions): Promise<AgentResult> {
  return new Promise<AgentResult>((resolve, reject) => {
    // Nothing but the ending is shown, so no other event is built or emitted.
    agentRuns(checkAgentOptions(options), true).subscribe({
      next: (event) => {
        if (event.type === "agent_halted") resolve({ haltedReason: event.haltedReason, metadata: event.metadata, messages: event.messages });
      },
      error: reject,
    });
  });
}
