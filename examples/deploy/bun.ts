/**
 * Bun: `bun run bun.ts`. Bun runs the TypeScript as it is and resolves toolrx's Node build; its
 * worker threads also run `toolrx/node` and `toolrx/code-mode`. CI runs it with the `bun` npm
 * package (test/runtimes/run-deploy.mjs).
 */
import { chat } from "./chat.ts";

declare const Bun: {
  serve(options: { port: number; hostname: string; fetch(request: Request): Response | Promise<Response> }): { port: number };
  env: Record<string, string | undefined>;
};

const server = Bun.serve({
  port: Number(Bun.env.PORT ?? 3000),
  hostname: "127.0.0.1",
  fetch: (request) => (new URL(request.url).pathname === "/api/chat" && request.method === "POST" ? chat(request) : new Response("Not found", { status: 404 })),
});
console.log(`listening on ${server.port}`);
