import type { Message } from "../../tool/message.js";
import type { JournalEntry } from "./journal.js";

/**
 * A run's input, in a short string: the same conversation gives the same one. Not a security
 * measure (the store is the host's own): 53 bits of a string hash, and the length.
 */
export function fingerprintOf(messages: readonly Message[]): string {
  const text = JSON.stringify(messages);
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return `${(4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36)}.${text.length}`;
}

/**
 * Where the run of `fingerprint` starts in `entries`: the index of the latest run's entry when it
 * is this input's (a restart plays it back), `"stale"` when an earlier run had this input and
 * work was recorded since (a call, a reply, a decision: a new run from it could do that work
 * again), undefined when the input is new. An input whose runs since recorded only their start
 * and ending is not stale: nothing of them can happen twice (a host that drops a decision refused
 * `token_expired` asks again from the ending before, which may be such a run's input).
 */
export function runOf(entries: readonly JournalEntry[], fingerprint: string): number | "stale" | undefined {
  let work = false;
  for (let i = entries.length - 1, latest = true; i >= 0; i--) {
    const entry = entries[i] as JournalEntry;
    if (entry.type !== "run") {
      work ||= entry.type !== "halt";
      continue;
    }
    if (entry.input === fingerprint) return latest ? i : work ? "stale" : undefined;
    latest = false;
  }
  return undefined;
}
