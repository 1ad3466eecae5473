import type { Observer, Subscribable, Unsubscribable } from "rxjs";
import type { ToolCall } from "../../tool/tool-call.js";

/**
 * The runner's input: calls go straight to the one observer the runner attaches, without a
 * Subject's bookkeeping on every call.
 */
export class CallFeed implements Subscribable<ToolCall> {
  #observer: Partial<Observer<ToolCall>> | undefined;

  subscribe(observer: Partial<Observer<ToolCall>>): Unsubscribable {
    this.#observer = observer;
    return { unsubscribe: () => (this.#observer = undefined) };
  }

  next(call: ToolCall): void {
    this.#observer?.next?.(call);
  }

  complete(): void {
    const observer = this.#observer;
    this.#observer = undefined;
    observer?.complete?.();
  }
}
