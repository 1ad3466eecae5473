import { firstValueFrom, toArray } from "rxjs";
import { streamAgent, type AgentEvent, type AgentOptions, type FinishReason, type ModelEvent, type ToolCall } from "../../src/index.js";
import type { Message } from "../../src/tool/message.js";

export const user = (content: string): Message => ({ role: "user", content });
export const text = (t: string): ModelEvent => ({ type: "text_delta", text: t });
export const finish = (reason: FinishReason, error?: unknown): ModelEvent =>
  error === undefined ? { type: "finish", reason } : { type: "finish", reason, error };
export const callOf = (id: string, name: string, args: Record<string, unknown> = {}): ToolCall => ({ id, name, arguments: args });
export const toolCall = (id: string, name: string, args: Record<string, unknown> = {}): ModelEvent => ({
  type: "tool_call",
  call: callOf(id, name, args),
});

/** Every event of a run. */
export function agentEvents(options: AgentOptions): Promise<AgentEvent[]> {
  return firstValueFrom(streamAgent(options).pipe(toArray()));
}

/** The last event of a run: always `agent_halted`. */
export async function haltedOf(options: AgentOptions): Promise<Extract<AgentEvent, { type: "agent_halted" }>> {
  const events = await agentEvents(options);
  const last = events.at(-1);
  if (last?.type !== "agent_halted") throw new Error(`the last event is ${last?.type}`);
  return last;
}

/** `type` of each event, with the turn when it has one, and the tool event's type. */
export function shapeOf(events: readonly AgentEvent[]): string[] {
  return events.map((e) => {
    switch (e.type) {
      case "tool_event":
        return `${e.turn}:${e.event.type}(${e.event.toolCallId})`;
      case "agent_halted":
        return `agent_halted(${e.haltedReason})`;
      default:
        return `${e.turn}:${e.type}`;
    }
  });
}
