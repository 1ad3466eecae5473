/**
 * An agent in the browser: the whole loop runs in the page (bundle this module with Vite or
 * esbuild; both pick toolrx's browser build). The page calls the route function directly, as a
 * service worker would, and renders the stream with the AI SDK's own reader. CI loads it in
 * headless Chromium (test/runtimes/run-deploy.mjs). Keep provider keys off the page: in
 * production, the model runs behind your route and the page posts to it.
 */
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import { chat } from "./chat.ts";

const messages: UIMessage[] = [{ id: "u1", role: "user", parts: [{ type: "text", text: "Weather in Lisbon?" }] }];
const response = await chat(new Request(new URL("/api/chat", location.href), { method: "POST", body: JSON.stringify({ messages }) }));
const chunks = response.body?.pipeThrough(new TextDecoderStream()).pipeThrough(sseChunks());
const out = document.createElement("pre");
out.id = "answer";
document.body.append(out);
if (chunks !== undefined) {
  for await (const message of readUIMessageStream({ stream: chunks })) {
    out.textContent = message.parts
      .map((p) => (p.type === "text" ? p.text : p.type.startsWith("tool-") ? `[${p.type} ${"state" in p ? p.state : ""}]` : ""))
      .join(" ");
  }
}
out.dataset.done = "true";

/** Server-Sent Events text to UI message chunks (what `DefaultChatTransport` does over fetch). */
function sseChunks(): TransformStream<string, UIMessageChunk> {
  let buffer = "";
  return new TransformStream({
    transform(text, controller) {
      buffer += text;
      const frames = buffer.split("\n\n");
      buffer = frames.pop() ?? "";
      for (const frame of frames) {
        const data = frame.startsWith("data: ") ? frame.slice(6) : "";
        if (data !== "" && data !== "[DONE]") controller.enqueue(JSON.parse(data) as UIMessageChunk);
      }
    },
  });
}
