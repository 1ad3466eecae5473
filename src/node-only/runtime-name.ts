/** The globals that tell runtimes apart; each is optional, as no runtime has them all. */
interface RuntimeGlobals {
  navigator?: { userAgent?: unknown };
  EdgeRuntime?: unknown;
  Deno?: { version?: { deno?: unknown } };
  Bun?: { version?: unknown };
  document?: unknown;
  WorkerGlobalScope?: unknown;
  process?: { versions?: { node?: unknown } };
}

/**
 * A reader's name for the runtime this code runs on: what an error about a missing runtime
 * feature must say, so the user sees where they are, not a resolution failure deep in a bundle.
 *
 * @example
 * runtimeName(); //=> "Cloudflare Workers (workerd)" inside a Worker, "Node.js 20.20.2" on Node
 */
export function runtimeName(): string {
  const g = globalThis as RuntimeGlobals;
  const agent = typeof g.navigator?.userAgent === "string" ? g.navigator.userAgent : "";
  // workerd's fixed user agent; Vercel Edge and Next.js's edge runtime set `EdgeRuntime`.
  if (agent.startsWith("Cloudflare-Workers")) return "Cloudflare Workers (workerd)";
  if (typeof g.EdgeRuntime === "string") return `an edge runtime (${g.EdgeRuntime})`;
  if (typeof g.Deno?.version?.deno === "string") return `Deno ${g.Deno.version.deno}`;
  if (typeof g.Bun?.version === "string") return `Bun ${g.Bun.version}`;
  if (typeof g.document === "object" && g.document !== null) return `a browser (${agent})`;
  if (typeof g.WorkerGlobalScope === "function") return `a browser's web worker (${agent})`;
  if (typeof g.process?.versions?.node === "string") return `Node.js ${g.process.versions.node}`;
  return "a runtime without Node.js's built-ins";
}
