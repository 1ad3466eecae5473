import type { Tool } from "../../tool/tool.js";
import type { ToolCall } from "../../tool/tool-call.js";
import { controlOf } from "../../tool/tool-control.js";

/** Calls of one tool, or of one group of tools, that share a concurrency limit. */
export interface Lane {
  readonly limit: number;
  active: number;
  /** Calls waiting for this lane, in input order, from `head` on. */
  waiting: Parked[];
  head: number;
}

/** A call waiting for its lane, holding no global slot. */
export interface Parked {
  readonly call: ToolCall;
  readonly index: number;
  readonly tool: Tool;
}

/**
 * A pool's per-tool and per-group limits (`control.concurrency`). A call whose lane is full, or
 * has calls waiting before it, is parked there; the pool starts parked calls first, earliest
 * input first, since every parked call arrived before any call still in the pool's queue.
 */
export class Lanes {
  readonly #lanes = new Map<string, Lane>();
  /** Calls parked in all lanes. */
  parked = 0;

  /**
   * The lane of a tool with a `control`, or `undefined` when it has no limit of its own. The
   * tools were indexed first (`indexTools`): their controls are checked and a group's tools agree
   * on its limit.
   */
  of(tool: Tool): Lane | undefined {
    const control = controlOf(tool);
    if (control?.lane === undefined) return undefined;
    let lane = this.#lanes.get(control.lane);
    if (lane === undefined) {
      lane = { limit: control.limit, active: 0, waiting: [], head: 0 };
      this.#lanes.set(control.lane, lane);
    }
    return lane;
  }

  /** Park the call when it cannot start now; true when parked. */
  park(lane: Lane, call: ToolCall, index: number, tool: Tool): boolean {
    if (lane.active < lane.limit && lane.head === lane.waiting.length) return false;
    lane.waiting.push({ call, index, tool });
    this.parked++;
    return true;
  }

  /** The earliest parked call whose lane has room, taken out of its lane, with that lane. */
  takeReady(): [Parked, Lane] | undefined {
    let best: Lane | undefined;
    for (const lane of this.#lanes.values()) {
      if (lane.head < lane.waiting.length && lane.active < lane.limit) {
        if (best === undefined || (lane.waiting[lane.head] as Parked).index < (best.waiting[best.head] as Parked).index) best = lane;
      }
    }
    if (best === undefined) return undefined;
    const parked = best.waiting[best.head++] as Parked;
    if (best.head === best.waiting.length) {
      best.waiting = [];
      best.head = 0;
    }
    this.parked--;
    return [parked, best];
  }

  /**
   * Forget every parked call. The pool lets go of its lanes when it closes, but a running call
   * still holds its own lane, and a handler that ignores its abort can keep that call alive.
   */
  clear(): void {
    for (const lane of this.#lanes.values()) {
      lane.waiting = [];
      lane.head = 0;
    }
    this.parked = 0;
  }

  /** Take every parked call with this id out of its lane. */
  remove(id: string): Parked[] {
    const removed: Parked[] = [];
    for (const lane of this.#lanes.values()) {
      for (let i = lane.head; i < lane.waiting.length; i++) {
        const parked = lane.waiting[i] as Parked;
        if (parked.call.id !== id) continue;
        lane.waiting.splice(i--, 1);
        this.parked--;
        removed.push(parked);
      }
    }
    return removed;
  }
}
