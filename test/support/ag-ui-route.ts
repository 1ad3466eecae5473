import { HttpAgent, verifyEvents } from "@ag-ui/client";
import type { BaseEvent, Message as AgUiMessage, RunAgentInput } from "@ag-ui/core";
import { MessageSchema, RunAgentInputSchema } from "@ag-ui/core/schemas";
import { from } from "rxjs";
import { fromRunAgentInput, toAgUiEvents } from "../../src/ag-ui/index.js";
import { streamAgent, type AgentOptions, type Tool } from "../../src/index.js";

/**
 * An AG-UI endpoint the way docs/ui.md wires one: the client's `RunAgentInput` (checked with
 * `@ag-ui/core`'s own schema, 400 when it fails) read with `fromRunAgentInput`, the run streamed
 * back as Server-Sent Events of `toAgUiEvents`, the thread's id as the run's `sessionId`.
 */
export class AgUiRoute {
  readonly inputs: RunAgentInput[] = [];
  readonly refused: string[] = [];

  constructor(readonly options: Omit<AgentOptions, "messages" | "tools"> & { readonly tools: readonly Tool[] }) {}

  readonly fetch = async (_url: string, init: RequestInit): Promise<Response> => {
    const parsed = RunAgentInputSchema.safeParse(JSON.parse(String(init.body)));
    if (!parsed.success) {
      this.refused.push(parsed.error.message);
      return new Response(parsed.error.message, { status: 400 });
    }
    const input = parsed.data;
    this.inputs.push(structuredClone(input));
    const messages = fromRunAgentInput(input);
    const events = streamAgent({ ...this.options, messages, sessionId: input.threadId }).pipe(
      toAgUiEvents({ threadId: input.threadId, runId: input.runId, messages }),
    );
    const encoder = new TextEncoder();
    let unsubscribe = () => {};
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const subscription = events.subscribe({
          next: (e) => controller.enqueue(encoder.encode(`data: ${JSON.stringify(e)}\n\n`)),
          error: (e: unknown) => controller.error(e),
          complete: () => controller.close(),
        });
        unsubscribe = () => subscription.unsubscribe();
      },
      cancel: () => unsubscribe(),
    });
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  };
}

/** `@ag-ui/client`'s HttpAgent on `route`, from the messages a client kept (a reload starts from them). */
export function agentOn(route: AgUiRoute, threadId: string, initialMessages: AgUiMessage[] = []): HttpAgent {
  return new HttpAgent({ url: "http://localhost/api/agent", threadId, initialMessages, fetch: route.fetch });
}

/**
 * One run of the client, judged by `@ag-ui/client`'s and `@ag-ui/core`'s own code: the events it
 * received pass `verifyEvents` (the agent applies them through it too), and every message the
 * client now keeps parses with `MessageSchema`. Returns the run's events.
 */
export async function judgedRun(agent: HttpAgent, parameters: Parameters<HttpAgent["runAgent"]>[0] = {}): Promise<BaseEvent[]> {
  const events: BaseEvent[] = [];
  await agent.runAgent(parameters, { onEvent: ({ event }) => void events.push(event) });
  // verifyEvents is an operator of the client's own copy of rxjs: applied as a function, not through pipe.
  const verified = verifyEvents()(from(events) as unknown as Parameters<ReturnType<typeof verifyEvents>>[0]);
  await new Promise<void>((resolve, reject) => verified.subscribe({ error: reject, complete: resolve }));
  for (const m of agent.messages) MessageSchema.parse(m);
  return events;
}
