import { Chat } from "@ai-sdk/react";
import {
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  lastAssistantMessageIsCompleteWithToolCalls,
  safeValidateUIMessages,
  type UIMessage,
} from "ai";
import { Subject } from "rxjs";
import { fromUIMessages, toUIMessageChunks, uiMessageStreamResponse } from "../../src/ai-sdk/index.js";
import { streamAgent, type AgentOptions, type Tool } from "../../src/index.js";

/** What the tools' schemas look like to `ai`'s validator: `validateUIMessages({ tools })`. */
export function validatorTools(tools: readonly Tool[]): Record<string, { inputSchema: never }> {
  return Object.fromEntries(tools.map((t) => [t.name, { inputSchema: t.schema as never }]));
}

/** The history judged by `ai`'s own validator, with the tools' input schemas: `undefined` when valid, else the error's text. */
export async function historyProblem(messages: readonly UIMessage[], tools: readonly Tool[]): Promise<string | undefined> {
  const result = await safeValidateUIMessages({ messages: structuredClone([...messages]), tools: validatorTools(tools) });
  return result.success ? undefined : String(result.error.message);
}

/**
 * The route docs/ui.md shows, as a server that checks what the page posts with `ai`'s own
 * validator (400 when the history is not valid): `{ id, messages }` in, the run as the UI
 * message stream out, `sessionId` the chat's id, and a `cancel` channel per chat for Stop.
 */
export class ChatRoute {
  readonly posted: UIMessage[][] = [];
  readonly refused: string[] = [];
  readonly #cancels = new Map<string, Subject<string>>();
  #open = 0;

  constructor(readonly options: Omit<AgentOptions, "messages" | "tools"> & { readonly tools: readonly Tool[] }) {}

  get open(): number {
    return this.#open;
  }

  /** Stop one running call of a chat: what examples/ui's `/api/cancel` does. */
  stop(chatId: string, toolCallId: string): boolean {
    const channel = this.#cancels.get(chatId);
    channel?.next(toolCallId);
    return channel !== undefined;
  }

  readonly fetch = async (_url: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const { id, messages } = JSON.parse(String(init?.body)) as { id: string; messages: UIMessage[] };
    this.posted.push(structuredClone(messages));
    const problem = await historyProblem(messages, this.options.tools);
    if (problem !== undefined) {
      this.refused.push(problem);
      return new Response(problem, { status: 400 });
    }
    const cancel = new Subject<string>();
    this.#cancels.set(id, cancel);
    const run = { ...this.options, messages: fromUIMessages(messages), sessionId: id, cancel };
    this.#open++;
    const done = () => {
      if (this.#cancels.get(id) === cancel) this.#cancels.delete(id);
      this.#open--;
    };
    const response = uiMessageStreamResponse(streamAgent(run).pipe(toUIMessageChunks({ originalMessages: messages })));
    // Count the request open until its body is read to the end or cancelled.
    const body = (response.body as ReadableStream<Uint8Array>).pipeThrough(new TransformStream({ flush: done }));
    init?.signal?.addEventListener("abort", () => done(), { once: true });
    return new Response(body, { status: response.status, headers: response.headers });
  };
}

/** `useChat`'s Chat (what the hook runs), over the default transport, answering by itself as examples/ui does: on `route`, or at `api` with the real fetch. */
export function chatOn(route: ChatRoute | string, init: { id?: string; messages?: UIMessage[] } = {}): Chat<UIMessage> {
  const transport =
    typeof route === "string" ? new DefaultChatTransport({ api: route }) : new DefaultChatTransport({ api: "http://localhost/api/chat", fetch: route.fetch });
  return new Chat<UIMessage>({
    ...init,
    transport,
    sendAutomaticallyWhen: (o) => lastAssistantMessageIsCompleteWithApprovalResponses(o) || lastAssistantMessageIsCompleteWithToolCalls(o),
  });
}

/**
 * Wait until the chat is idle (status ready or error, and no request of `route` open) for a few
 * turns of the event loop in a row: an automatic resend starts a turn after the answer it follows.
 */
export async function settled(chat: Chat<UIMessage>, route?: ChatRoute, timeoutMs = 30_000): Promise<void> {
  let quiet = 0;
  const until = Date.now() + timeoutMs;
  while (quiet < 5 && Date.now() < until) {
    await new Promise((r) => setTimeout(r, route === undefined ? 20 : 2));
    quiet = (route?.open ?? 0) === 0 && (chat.status === "ready" || chat.status === "error") ? quiet + 1 : 0;
  }
  if (quiet < 5) throw new Error(`the chat did not settle: status ${chat.status}, ${route?.open ?? "?"} request(s) open`);
}
