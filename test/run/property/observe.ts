/** The tools of the runner's property tests, and how a batch is run and watched. */
import { Subject, takeUntil, tap } from "rxjs";
import { z } from "zod";
import { defineTool, streamToolCalls } from "../../../src/index.js";
import type { HandlerContext } from "../../../src/tool/handler-context.js";

import { KINDS } from "./arbitraries.js";
import type { Stamped } from "./instruments.js";
import { Harness } from "./harness.js";

export function harnessOf(ctx: HandlerContext): Harness {
  if (!(ctx.context instanceof Harness)) throw new Error("ctx.context is not the test harness");
  return ctx.context;
}

export const argsSchema = z.object({ n: z.number().int().nonnegative() });

/** One tool per behaviour, so `toolName` varies; all share the harness's handler. */
export const TOOLS = KINDS.map((kind) =>
  defineTool({
    name: `t_${kind}`,
    description: `a tool that behaves as "${kind}"`,
    schema: argsSchema,
    handler: (args, ctx) => harnessOf(ctx).invoke(args.n, ctx),
  }),
);

// ---------------------------------------------------------------------------------------------
// Running a batch
// ---------------------------------------------------------------------------------------------

/** Where a run is cut short: after the k-th event, or inside the m-th handler to start. */
export type Cut = { readonly trigger: "event" | "handler"; readonly after: number; readonly action: "unsubscribe" | "abort" };

export type End = { readonly kind: "complete" } | { readonly kind: "error"; readonly error: unknown };

export interface StreamRun {
  readonly events: readonly Stamped[];
  readonly end: End;
  /** Clock reading at the cut; `undefined` when the run was not cut. */
  readonly cutAt: number | undefined;
  /** Live timers and listeners right after the stream ended (complete, error or unsubscribed). */
  readonly timersAtEnd: number;
  readonly listenersAtEnd: number;
}

export const WATCHDOG_MS = 10_000;

/** Fails instead of hanging when a run never ends. */
export async function withWatchdog<T>(what: string, run: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const watchdog = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not end within ${WATCHDOG_MS} ms`)), WATCHDOG_MS);
  });
  try {
    return await Promise.race([run, watchdog]);
  } finally {
    clearTimeout(timer);
  }
}

/** Subscribe to `streamToolCalls`, cutting the run as `cut` says. */
export async function observeStream(h: Harness, cut?: Cut): Promise<StreamRun> {
  const events: Stamped[] = [];
  let cutAt: number | undefined;
  const stop$ = new Subject<void>();
  const doCut = () => {
    if (cutAt !== undefined) return;
    cutAt = h.tick();
    if (cut?.action === "abort") h.controller.abort(h.abortReason);
    else stop$.next();
  };
  if (cut?.trigger === "handler") {
    h.onHandlerStart = (count) => {
      if (count === cut.after) doCut();
    };
  }
  const end = await withWatchdog(
    "the stream",
    new Promise<End>((resolve) => {
      streamToolCalls(h.calls, TOOLS, h.options())
        .pipe(
          tap((event) => {
            events.push({ event, at: h.tick() });
            if (cut?.trigger === "event" && events.length === cut.after) doCut();
          }),
          takeUntil(stop$),
        )
        .subscribe({ complete: () => resolve({ kind: "complete" }), error: (e: unknown) => resolve({ kind: "error", error: e }) });
    }),
  );
  // `complete`/`error` reach us before the subscription's teardown has run; read the counters after it.
  await Promise.resolve();
  return { events, end, cutAt, timersAtEnd: h.scheduler.live, listenersAtEnd: h.listeners.live };
}

/** Wait for every handler that will settle, then one macrotask for unhandled rejections to surface. */
export async function settleAll(h: Harness): Promise<void> {
  await withWatchdog("the handlers", Promise.all(h.background));
  await new Promise((resolve) => setTimeout(resolve, 1));
}

/** Run `body` with `unhandledRejection` recorded on the harness. */
export async function recordingUnhandled<T>(harnesses: readonly Harness[], body: () => Promise<T>): Promise<T> {
  const onUnhandled = (reason: unknown) => {
    for (const h of harnesses) h.unhandled.push(reason);
  };
  process.on("unhandledRejection", onUnhandled);
  try {
    return await body();
  } finally {
    process.off("unhandledRejection", onUnhandled);
  }
}
