import { checkAgentOptions, type AgentOptions } from "./options/index.js";
import { agentRuns } from "./stream-agent.js";
import type { AgentEvent, AgentResult } from "./events/index.js";

/**
 * Run the agent loop to its end and resolve with why it ended and the whole conversation: the
 * same run as `streamAgent`, collected. Name your handlers' own halt reasons as the type
 * argument (`runAgent<"budget">(…)`) to narrow on them as on the loop's. Every ending is a result, never a rejection
 * (`error`, `cancelled` included); it rejects only for invalid options, with a `TypeError`.
 *
 * @example
 * const r = await runAgent({ model, tools, messages: [{ role: "user", content: "Book Lisbon" }] });
 * if (r.haltedReason === "ask_user") {
 *   const next = await runAgent({ model, tools, messages: [...r.messages, { role: "user", content: "yes" }] });
 * }
 */
export function runAgent<HandlerReason extends string = never>(options: AgentOptions): Promise<AgentResult<HandlerReason>> {
  return new Promise<AgentResult<HandlerReason>>((resolve, reject) => {
    // Nothing but the ending is shown, so no other event is built or emitted.
    agentRuns(checkAgentOptions(options), true).subscribe({
      next: (event) => {
        if (event.type === "agent_halted") resolve(resultOf(event) as AgentResult<HandlerReason>);
      },
      error: reject,
    });
  });
}

function resultOf({ type: _, ...result }: Extract<AgentEvent, { type: "agent_halted" }>): AgentResult {
  return result;
}
