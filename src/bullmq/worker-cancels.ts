import type { JobSignal } from "./job-signal.js";

/**
 * A worker's view of the producers' cancels: the jobs it runs, each with the signal its run
 * (and so its handler's `ctx.signal`) aborts with, and the cancels it heard on the cancel channel for jobs it
 * has not started (yet). A producer publishes a cancel only after its job exists and could not
 * be removed, so a worker taking that job was taken before the publish: its message can reach
 * this worker before BullMQ hands over the job, and is kept until the job starts. That is what
 * lets a worker start a job without reading its cancel marker first (a round trip per job), as
 * long as its subscription stayed up ({@link channelTrusted}); when it was down lately, the
 * worker reads the marker, and the markers of running jobs are read again meanwhile anyway.
 */
export class WorkerCancels {
  readonly #running = new Map<string, JobSignal>();
  /** Cancels heard for jobs not running here, oldest first, with when they were heard. */
  readonly #heard = new Map<string, { readonly reason: string; readonly at: number }>();
  readonly #keepFor: number;
  readonly #now: () => number;
  /** When the subscription came back after it was last down: `-Infinity` if it never was. */
  #backAt = Number.NEGATIVE_INFINITY;
  /** Whether it is up now; not before the first subscription. */
  #up = false;
  #everUp = false;

  /**
   * @param keepFor how long, in ms, a heard cancel is kept for a job not started here, and how
   *   long after its subscription came back the channel is not trusted: longer than BullMQ takes
   *   from taking a job to starting it (the job's lock lasts that long at most).
   * @param now the clock, for tests.
   */
  constructor(keepFor: number, now: () => number = Date.now) {
    this.#keepFor = keepFor;
    this.#now = now;
  }

  /** The subscription is up (subscribed, or re-subscribed after a reconnect). */
  subscribed(): void {
    if (this.#up) return;
    if (this.#everUp) this.#backAt = this.#now();
    this.#up = true;
    this.#everUp = true;
  }

  /** The subscription went down: cancels published from now until it is back may be lost. */
  unsubscribed(): void {
    this.#up = false;
  }

  /**
   * Whether no cancel for a job starting now can have been lost: the subscription is up, and was
   * up since before this job was taken (a job taken while it was down starts within `keepFor`
   * of its coming back). When not, read the job's marker.
   */
  channelTrusted(): boolean {
    return this.#up && this.#now() - this.#backAt > this.#keepFor;
  }

  /** A cancel for `jobId`, from the channel or a marker: aborts its handler, or is kept for its start. */
  heard(jobId: string, reason: string): void {
    const signal = this.#running.get(jobId);
    if (signal !== undefined) {
      signal.abort(new Error(`cancelled by the producer: ${reason}`));
      return;
    }
    const now = this.#now();
    for (const [id, { at }] of this.#heard) {
      if (now - at <= this.#keepFor) break;
      this.#heard.delete(id);
    }
    this.#heard.delete(jobId);
    this.#heard.set(jobId, { reason, at: now });
  }

  /** The reason of a cancel heard for `jobId` before it started here (then its handler must not run), forgotten as it is read. */
  take(jobId: string): string | undefined {
    const early = this.#heard.get(jobId);
    if (early === undefined) return undefined;
    this.#heard.delete(jobId);
    return early.reason;
  }

  /**
   * `jobId` runs here, past its start, under `signal`: a cancel heard from now aborts it. A job
   * that ends within its start's own task is never tracked: no cancel can be heard meanwhile.
   */
  track(jobId: string, signal: JobSignal): void {
    this.#running.set(jobId, signal);
  }

  /** `jobId` ended here. */
  end(jobId: string): void {
    this.#running.delete(jobId);
  }

  /** The jobs running here now, whose markers a recheck reads. */
  runningIds(): string[] {
    return [...this.#running.keys()];
  }
}
