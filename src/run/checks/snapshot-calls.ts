import { assertToolCall, type ToolCall } from "../../tool/tool-call.js";
import type { CheckedCall } from "./checked-call.js";

/**
 * The batch as the array holds it now, each call checked: a caller that empties or refills its
 * array after this call changes nothing. Holes are read as `undefined`, so they are reported
 * by index, and two calls with one id are refused (providers reject the answer).
 */
export function snapshotCalls(calls: readonly unknown[]): CheckedCall[] {
  const batch = new Array<CheckedCall>(calls.length);
  for (let i = 0; i < batch.length; i++) {
    const call = calls[i];
    assertToolCall(call, i);
    batch[i] = call as CheckedCall;
  }
  assertUniqueIds(batch);
  return batch;
}

/**
 * Two answers to one id are refused by providers, so two calls with one id are refused here.
 * A model turn holds a handful of calls: comparing pairs is cheapest there. Larger batches use
 * an open-addressing table of indices keyed by an FNV-1a hash of the id, which costs a third
 * of a `Map` per call on short ids (measured with 10,000 calls) and never more on long ones.
 */
function assertUniqueIds(batch: readonly ToolCall[]): void {
  const n = batch.length;
  if (n <= 16) {
    for (let i = 1; i < n; i++) {
      const id = (batch[i] as ToolCall).id;
      for (let j = 0; j < i; j++) if ((batch[j] as ToolCall).id === id) duplicateId(id, j, i);
    }
    return;
  }
  let size = 32;
  while (size < n * 2) size *= 2;
  const mask = size - 1;
  const slots = new Int32Array(size).fill(-1);
  for (let i = 0; i < n; i++) {
    const id = (batch[i] as ToolCall).id;
    let hash = 0x811c9dc5;
    for (let k = 0; k < id.length; k++) hash = Math.imul(hash ^ id.charCodeAt(k), 16777619);
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const j = slots[slot] as number;
      if (j === -1) {
        slots[slot] = i;
        break;
      }
      if ((batch[j] as ToolCall).id === id) duplicateId(id, j, i);
    }
  }
}

function duplicateId(id: string, first: number, second: number): never {
  throw new TypeError(`Expected tool call ids to be unique, got "${id}" at index ${first} and ${second}; providers reject two answers to one id`);
}
