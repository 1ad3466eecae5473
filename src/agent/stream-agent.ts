import { Observable } from "rxjs";
import { checkAgentOptions, type AgentEnv, type AgentOptions } from "./options/index.js";
import { AgentRun } from "./loop/index.js";
import type { AgentEvent } from "./events/index.js";

/**
 * Run the agent loop: model, then tools, then model again, until something ends it. Cold and
 * lazy: nothing runs until you subscribe, and each subscription is its own run. Tool calls start
 * while the model still streams, through the same runner, options and policies as
 * `streamToolCalls`. `agent_halted` is always the last event and carries the whole conversation;
 * to resume, call again with it plus what was missing (the user's answer, manual results,
 * approval decisions). Unsubscribing aborts the model's `signal` and every running handler.
 * Name your handlers' own halt reasons as the type argument to narrow `agent_halted` on them.
 *
 * @throws {TypeError} at call time, for invalid options or a malformed conversation.
 *
 * @example
 * streamAgent({ model, tools: [weather], messages: [{ role: "user", content: "Weather in Oslo?" }] })
 *   .subscribe((e) => console.log(e.type));
 * // turn_started, tool_event ×3, turn_completed, turn_started, text_delta, turn_completed, agent_halted
 */
export function streamAgent<HandlerReason extends string = never>(options: AgentOptions): Observable<AgentEvent<HandlerReason>> {
  return agentRuns(checkAgentOptions(options), false) as Observable<AgentEvent<HandlerReason>>;
}

/** The runs of `env`, one per subscription; `quiet` ones emit `agent_halted` alone. */
export function agentRuns(env: AgentEnv, quiet: boolean): Observable<AgentEvent> {
  return new Observable<AgentEvent>((subscriber) => new AgentRun(env, subscriber, quiet).start());
}
