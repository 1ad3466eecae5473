/**
 * The chat route every deployment example serves: `useChat` posts `{ messages }`, the agent runs,
 * and the answer streams back as the AI SDK's UI message stream. Only web-standard APIs (`Request`,
 * `Response`, streams, Web Crypto), so the same function is the route on Node, Bun, Deno,
 * Cloudflare Workers, Vercel Edge and in a browser's service worker.
 *
 * The model is scripted, so the examples run with no key; for a real one, swap in
 * `aiSdkModel(openai("gpt-4.1"))` (toolrx/ai-sdk with `@ai-sdk/openai`) or
 * `openai.chatModel({ client: new OpenAI(), model: "gpt-4.1" })` (toolrx/providers): both are
 * fetch-based and run on every runtime here.
 */
import type { UIMessage } from "ai";
import { defineTool, type ModelRequest, ok, streamAgent } from "toolrx";
import { fromUIMessages, toUIMessageChunks, uiMessageStreamResponse } from "toolrx/ai-sdk";
import { scriptedModel } from "toolrx/testing";
import { z } from "zod";

const weather = defineTool({
  name: "weather",
  description: "Current weather by city",
  schema: z.object({ city: z.string() }),
  handler: ({ city }) => ok({ city, tempC: 21 }),
});

/** Stateless like the route: asks for the weather, then answers from the tool's result. */
function model(request: ModelRequest) {
  const answered = request.messages.some((m) => m.role === "tool");
  const turn = answered
    ? [
        { type: "text_delta" as const, text: "It is 21 °C in Lisbon." },
        { type: "finish" as const, reason: "stop" as const },
      ]
    : [{ type: "tool_call" as const, call: { id: "w1", name: "weather", arguments: { city: "Lisbon" } } }];
  return scriptedModel([turn])(request);
}

/** `POST /api/chat`: a bad body is a 400, never a run. */
export async function chat(request: Request): Promise<Response> {
  const body = (await request.json().catch(() => undefined)) as { messages?: UIMessage[] } | undefined;
  if (!Array.isArray(body?.messages)) return new Response("Expected a JSON body { messages: UIMessage[] }", { status: 400 });
  const run = streamAgent({ model, tools: [weather], messages: fromUIMessages(body.messages), toolTimeout: 10_000 });
  return uiMessageStreamResponse(run.pipe(toUIMessageChunks({ originalMessages: body.messages })));
}
