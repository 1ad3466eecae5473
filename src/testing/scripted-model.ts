import { asyncScheduler, Observable, type SchedulerLike, type Subscription } from "rxjs";
import type { Model, ModelEvent, ModelRequest } from "../index.js";

/** A pause in a scripted turn: the next event comes `wait` ms later, on the scheduler. */
export interface ScriptedWait {
  readonly wait: number;
}

/** One turn of a script: the events the model emits, with optional pauses between them. */
export type ScriptedTurn = readonly (ModelEvent | ScriptedWait)[];

/** Options of {@link scriptedModel}. */
export interface ScriptedModelOptions {
  /** Milliseconds before every event (on top of any `{ wait }`). Default `0`: no delay. */
  readonly delay?: number;
  /** Where delays are scheduled. Default `asyncScheduler`; pass a `TestScheduler` for virtual time. */
  readonly scheduler?: SchedulerLike;
}

/** A model that plays a script, and remembers what it was asked. */
export interface ScriptedModel extends Model {
  /** Every request it got, in order. */
  readonly requests: readonly ModelRequest[];
}

/**
 * A model for tests and demos: its n-th request (counted across runs, so a resumed run goes on
 * with the script) plays `turns[n]`, or what `turns[n](request)` returns. Without delays every
 * event is emitted synchronously; with them, each waits on the
 * scheduler, so a `TestScheduler` runs a slow model in no time. Aborting the request's `signal`
 * stops the turn with the signal's reason, as a provider's SDK does. A request past the end of
 * the script errors, which ends the loop with `error`.
 *
 * @example
 * const model = scriptedModel([
 *   [{ type: "tool_call", call: { id: "c1", name: "weather", arguments: { city: "Oslo" } } }, { type: "finish", reason: "tool_calls" }],
 *   [{ type: "text_delta", text: "Sunny, 21 °C." }, { type: "finish", reason: "stop" }],
 * ]);
 * await runAgent({ model, tools: [weather], messages: [{ role: "user", content: "Weather in Oslo?" }] });
 * // { haltedReason: "completed", metadata: { finishReason: "stop" }, messages: [...] }
 * model.requests.length; // 2
 */
export function scriptedModel(turns: readonly (ScriptedTurn | ((request: ModelRequest) => ScriptedTurn))[], options: ScriptedModelOptions = {}): ScriptedModel {
  const { delay = 0, scheduler } = options;
  if (!Array.isArray(turns)) throw new TypeError(`Expected \`turns\` to be an array of scripted turns, got ${typeof turns}`);
  if (!(typeof delay === "number" && delay >= 0 && Number.isFinite(delay))) {
    throw new TypeError(`Expected \`delay\` to be a non-negative number of milliseconds, got ${String(delay)}`);
  }
  if (scheduler !== undefined && typeof scheduler?.schedule !== "function") {
    throw new TypeError("Expected `scheduler` to be an RxJS SchedulerLike");
  }
  const requests: ModelRequest[] = [];
  const model = (request: ModelRequest): Observable<ModelEvent> => {
    const n = requests.length;
    requests.push(request);
    return new Observable<ModelEvent>((subscriber) => {
      const script = turns[n];
      if (script === undefined) {
        subscriber.error(new Error(`scriptedModel: no turn ${n} in a script of ${turns.length}`));
        return;
      }
      const steps = typeof script === "function" ? script(request) : script;
      const { signal } = request;
      const onAbort = () => subscriber.error(signal.reason);
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort);
      // Each event waits for `delay` plus the pauses written before it; trailing pauses delay the end.
      const plan: { wait: number; event: ModelEvent | undefined }[] = [];
      let paused = 0;
      for (const step of steps) {
        if (isWait(step)) {
          paused += step.wait;
        } else {
          plan.push({ wait: paused + delay, event: step });
          paused = 0;
        }
      }
      if (paused > 0) plan.push({ wait: paused, event: undefined });
      let i = 0;
      let waited = false;
      let timer: Subscription | undefined;
      const play = (): void => {
        timer = undefined;
        while (i < plan.length && !subscriber.closed) {
          const { wait, event } = plan[i] as (typeof plan)[number];
          if (wait > 0 && !waited) {
            waited = true;
            timer = (scheduler ?? asyncScheduler).schedule(play, wait);
            return;
          }
          waited = false;
          i++;
          if (event !== undefined) subscriber.next(event);
        }
        if (!subscriber.closed) subscriber.complete();
      };
      play();
      return () => {
        signal.removeEventListener("abort", onAbort);
        timer?.unsubscribe();
      };
    });
  };
  return Object.assign(model, { requests });
}

function isWait(step: ModelEvent | ScriptedWait): step is ScriptedWait {
  return typeof (step as ScriptedWait).wait === "number";
}
