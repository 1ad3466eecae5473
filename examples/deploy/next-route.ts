/**
 * Next.js (App Router) on the Edge runtime: save as `app/api/chat/route.ts`. Next bundles it with
 * the `edge-light` condition, so the route gets toolrx's isomorphic build; on the Node.js runtime
 * (drop the `runtime` line) the same file works unchanged. CI runs it in `edge-runtime`, the
 * sandbox Next uses for edge routes (test/runtimes/run-deploy.mjs).
 */
import { chat } from "./chat.ts";

export const runtime = "edge";

export async function POST(request: Request): Promise<Response> {
  return chat(request);
}
