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
 * A model turn holds a handful of calls: comparing pairs is cheapest there. Larger batches use a
 * `Set`, whose hash of each id V8 computes once in C++ and keeps on the string. An FNV-1a table
 * hashed in JavaScript was used before: a third of a `Set`'s cost once TurboFan compiled it, but
 * this runs once per batch, so it runs in baseline code, where its loop over each id's
 * characters cost 316 instructions a call under callgrind (10,000 calls of 9-character ids),
 * about 8% of a whole synchronous call.
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
  const seen = new Set<string>();
  for (let i = 0; i < n; i++) {
    const id = (batch[i] as ToolCall).id;
    const size = seen.size;
    if (seen.add(id).size === size) duplicateId(id, firstWith(batch, id), i);
  }
}

/** The index of the first call with `id` (only on the way to an error). */
function firstWith(batch: readonly ToolCall[], id: string): number {
  let j = 0;
  while ((batch[j] as ToolCall).id !== id) j++;
  return j;
}

function duplicateId(id: string, first: number, second: number): never {
  throw new TypeError(`Expected tool call ids to be unique, got "${id}" at index ${first} and ${second}; providers reject two answers to one id`);
}
