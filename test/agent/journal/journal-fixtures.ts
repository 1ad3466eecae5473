import { Observable } from "rxjs";
import { z } from "zod";
import {
  defineTool,
  ok,
  streamAgent,
  type AgentEvent,
  type HandlerResult,
  type Message,
  type ModelEvent,
  type ModelRequest,
  type Tool,
} from "../../../src/index.js";
import { user } from "../../support/agent-helpers.js";

// The tools, model and crash of the journal's restart tests (journal.test.ts, model-reply.test.ts, journal-approval.test.ts).

/** The conversation every run starts from. */
export const input: Message[] = [user("go")];

/** A tool whose runs are counted; `hang` makes it never settle (its process "dies" with it). */
export function counted(name: string, options: { hang?: boolean; idempotent?: boolean } = {}) {
  const runs: unknown[] = [];
  const tool: Tool = defineTool({
    name,
    description: "",
    schema: z.object({ n: z.number() }),
    ...(options.idempotent ? { control: { idempotent: true } } : {}),
    handler: ({ n }) => {
      runs.push(n);
      return options.hang ? new Promise<HandlerResult>(() => {}) : ok(`${name} ${n}`);
    },
  });
  return { tool, runs };
}

/**
 * A model like a provider's: a fresh random id per call on every request, so a second request for
 * a turn would name different calls. Turn k (by the assistant messages so far) asks for `plan[k]`.
 * `hangAfter`: on that turn, stream the calls and then never finish.
 */
export function randomIdModel(plan: readonly { tool: string; n: number }[][], hangAt?: number) {
  const asked: number[] = [];
  const model = (request: ModelRequest) =>
    new Observable<ModelEvent>((subscriber) => {
      const k = request.messages.filter((m) => m.role === "assistant").length;
      asked.push(k);
      const calls = plan[k];
      if (calls === undefined) {
        subscriber.next({ type: "text_delta", text: `done after ${k} turns` });
        subscriber.complete();
        return;
      }
      subscriber.next({ type: "text_delta", text: `turn ${k}` });
      for (const { tool, n } of calls) {
        subscriber.next({ type: "tool_call", call: { id: `call_${Math.random().toString(36).slice(2)}`, name: tool, arguments: { n } } });
      }
      if (hangAt !== k) subscriber.complete();
    });
  return { model, asked };
}

/** Run until `until` says the process should die, then unsubscribe as a crash would stop it (no ending is recorded). */
export async function crashWhen(options: Parameters<typeof streamAgent>[0], until: (e: AgentEvent) => boolean): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  await new Promise<void>((resolve) => {
    const subscription = streamAgent(options).subscribe((e) => {
      events.push(e);
      if (until(e))
        queueMicrotask(() => {
          subscription.unsubscribe();
          resolve();
        });
      if (e.type === "agent_halted") resolve();
    });
  });
  return events;
}
