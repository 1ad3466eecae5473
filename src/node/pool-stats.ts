/** What a pool is doing right now, for a metric or a test. */
export interface WorkerPoolStats {
  /** Threads alive: starting, idle, running or draining. */
  readonly threads: number;
  readonly starting: number;
  readonly idle: number;
  /** Calls running on a thread. */
  readonly running: number;
  /** Calls whose signal aborted, given the grace period before their thread is terminated. */
  readonly draining: number;
  /** Calls waiting for a thread. */
  readonly queued: number;
}
