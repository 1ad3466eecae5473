// Isolated handlers written in TypeScript (docs/isolation.md, "TypeScript handlers"). A worker
// thread loads this file through tsx in development (examples/register-tsx.mjs as a preload),
// and the built JavaScript in production. Type-only imports: a thread loads nothing it needs not.
import type { HandlerContext, HandlerResult } from "../src/index.js";

interface Rectangle {
  readonly width: number;
  readonly height: number;
}

/** The area of a rectangle. */
export function area({ width, height }: Rectangle, ctx: HandlerContext): HandlerResult {
  if (ctx.signal.aborted) return { type: "error", reason: "stopped on request" };
  return { type: "ok", value: width * height };
}
