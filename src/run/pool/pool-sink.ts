import type { ToolEvent } from "../results/index.js";

/**
 * Where the pool's events go: the Subscriber of `streamToolCalls`' Observable, or the agent loop's
 * batch directly (`openCheckedCalls`), which needs no Subscriber's bookkeeping on every event.
 * `closed`: the consumer let go (or the stream ended), so nothing more is wanted.
 */
export interface PoolSink {
  next(event: ToolEvent): void;
  error(reason: unknown): void;
  complete(): void;
  readonly closed: boolean;
}
