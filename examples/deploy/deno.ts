/**
 * Deno (and Deno Deploy): `deno run --allow-net --allow-env deno.ts`, with toolrx, rxjs and zod
 * from npm (`deno add npm:toolrx npm:rxjs npm:zod npm:ai`, or a package.json). CI runs it with the
 * `deno` npm package (test/runtimes/run-deploy.mjs).
 */
import { chat } from "./chat.ts";

declare const Deno: {
  serve(
    options: { port: number; hostname: string; onListen(address: { port: number }): void },
    handler: (request: Request) => Response | Promise<Response>,
  ): unknown;
  env: { get(name: string): string | undefined };
};

Deno.serve({ port: Number(Deno.env.get("PORT") ?? 8000), hostname: "127.0.0.1", onListen: ({ port }) => console.log(`listening on ${port}`) }, (request) =>
  new URL(request.url).pathname === "/api/chat" && request.method === "POST" ? chat(request) : new Response("Not found", { status: 404 }),
);
