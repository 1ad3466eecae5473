import type { UIMessageChunk } from "ai";
import type { Observable, Subscription } from "rxjs";

/**
 * The headers of the AI SDK's UI message stream protocol (version 1), as `ai` sets them: Server-Sent
 * Events, not cached nor buffered by a proxy, and the header by which a client knows the protocol.
 */
export const UI_MESSAGE_STREAM_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
  connection: "keep-alive",
  "x-vercel-ai-ui-message-stream": "v1",
  "x-accel-buffering": "no",
});

/**
 * A `Response` streaming the chunks as the UI message stream protocol's Server-Sent Events (one
 * `data:` line of JSON each, then `data: [DONE]`), what `useChat`'s default transport reads. The
 * chunks are subscribed to when the body is first read, and unsubscribed from when the client
 * goes away (the body is cancelled): for `streamAgent`, closing the page aborts the running
 * handlers. An error of the Observable becomes an `error` chunk with `errorText`.
 *
 * @param chunks The UI message chunks, from {@link toUIMessageChunks}.
 * @param init Status and headers; a header given here wins over the protocol's.
 * @param errorText The text an error of `chunks` is sent as. Default `"An error occurred."`.
 *
 * @example
 * // A fetch handler (Next.js route, Hono, Deno, Bun, workers):
 * export async function POST(req: Request) {
 *   const options = { model, tools, messages: fromUIMessages((await req.json()).messages) };
 *   return uiMessageStreamResponse(streamAgent(options).pipe(toUIMessageChunks(options)));
 * }
 */
export function uiMessageStreamResponse(
  chunks: Observable<UIMessageChunk>,
  init: ResponseInit = {},
  errorText: (error: unknown) => string = () => "An error occurred.",
): Response {
  if (chunks === null || typeof chunks !== "object" || typeof chunks.subscribe !== "function") {
    throw new TypeError("Expected `chunks` of `uiMessageStreamResponse` to be an Observable of UI message chunks");
  }
  if (init === null || typeof init !== "object") throw new TypeError("Expected `init` of `uiMessageStreamResponse` to be a ResponseInit object");
  if (typeof errorText !== "function") throw new TypeError("Expected `errorText` of `uiMessageStreamResponse` to be a function");
  const encoder = new TextEncoder();
  let subscription: Subscription | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (value: unknown) => controller.enqueue(encoder.encode(`data: ${JSON.stringify(value)}\n\n`));
      const end = () => {
        controller.enqueue(encoder.encode("data: [DONE]\n\n"));
        controller.close();
      };
      subscription = chunks.subscribe({
        next: send,
        error: (e: unknown) => {
          send({ type: "error", errorText: errorText(e) });
          end();
        },
        complete: end,
      });
    },
    cancel() {
      subscription?.unsubscribe();
    },
  });
  const headers = new Headers(UI_MESSAGE_STREAM_HEADERS);
  new Headers(init.headers).forEach((value, name) => {
    headers.set(name, value);
  });
  return new Response(body, { ...init, headers });
}
