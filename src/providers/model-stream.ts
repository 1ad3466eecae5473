import { Observable } from "rxjs";
import type { ModelEvent, ModelRequest } from "../index.js";

/** Turns a provider's stream items into model events, and says what is left when the stream ends. */
export interface StreamReader<Item> {
  read(item: Item): readonly ModelEvent[];
  end(): readonly ModelEvent[];
}

/**
 * A model turn as a cold Observable over an SDK's streaming call. The SDK gets a signal of our
 * own, aborted by the request's signal and by unsubscribing, so either one closes the HTTP
 * stream even when the caller never aborts its signal.
 *
 * The SDKs end their iteration quietly when aborted, so an abort is told apart from a normal
 * end by the signal, not by an exception: aborted by the request's signal while still
 * subscribed, the Observable errors with the signal's reason; unsubscribed, it emits nothing more.
 * Provider errors (an HTTP status, an error event in the stream) error the Observable with the
 * SDK's own error.
 */
export function streamModel<Item>(
  request: ModelRequest,
  open: (signal: AbortSignal) => PromiseLike<AsyncIterable<Item>>,
  reader: () => StreamReader<Item>,
): Observable<ModelEvent> {
  return new Observable<ModelEvent>((subscriber) => {
    const controller = new AbortController();
    const outer = request.signal;
    const abort = () => controller.abort(outer.reason);
    if (outer.aborted) {
      subscriber.error(outer.reason);
      return;
    }
    outer.addEventListener("abort", abort, { once: true });

    const pump = async () => {
      const stream = await open(controller.signal);
      const read = reader();
      for await (const item of stream) {
        if (subscriber.closed) return;
        for (const event of read.read(item)) subscriber.next(event);
      }
      if (controller.signal.aborted || subscriber.closed) return;
      for (const event of read.end()) subscriber.next(event);
    };
    pump().then(
      () => (controller.signal.aborted ? subscriber.error(controller.signal.reason) : subscriber.complete()),
      (error: unknown) => subscriber.error(controller.signal.aborted ? controller.signal.reason : error),
    );

    return () => {
      outer.removeEventListener("abort", abort);
      controller.abort();
    };
  });
}
