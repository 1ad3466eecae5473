/**
 * Hono on Cloudflare Workers: `src/index.ts` of a Worker (`wrangler deploy`). wrangler bundles
 * with the `workerd` condition; toolrx needs no `nodejs_compat` flag. CI runs it in workerd
 * through miniflare (test/runtimes/run-deploy.mjs).
 */
import { Hono } from "hono";
import { chat } from "./chat.ts";

const app = new Hono();
app.post("/api/chat", (c) => chat(c.req.raw));

export default app;
