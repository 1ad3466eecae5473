import type { ToolCall } from "../../tool/tool-call.js";

/** The ids of one model reply's calls, so a second call with the same id is refused. */
export class CallIds {
  /** Kept once there are too many calls to compare one by one. */
  #ids: Set<string> | undefined;

  /**
   * Whether a call of this reply already has `id`; remembers it otherwise. A turn holds a handful
   * of calls: comparing them costs a fraction of a `Set`'s upkeep, which takes over past 16.
   */
  seen(id: string, calls: readonly ToolCall[]): boolean {
    if (this.#ids === undefined) {
      if (calls.length < 16) {
        for (const call of calls) if (call.id === id) return true;
        return false;
      }
      this.#ids = new Set(calls.map((call) => call.id));
    }
    if (this.#ids.has(id)) return true;
    this.#ids.add(id);
    return false;
  }
}
