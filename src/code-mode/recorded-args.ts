import { createHash } from "node:crypto";

/** Arguments longer than this, in UTF-16 units of their JSON text, are kept in a record as a digest. */
export const RECORDED_ARGS_CHARS = 256;

/**
 * A nested call's arguments as the host keeps them once the call has been parsed: the JSON text
 * when it is short (a `diverged` message can show it), else `sha256:<hex>` of it, so a script
 * sending thousands of large calls leaves the host a few bytes per call, and a replay still tells
 * other arguments from the same ones. JSON text never starts with `sha256:`.
 */
export function recordedArgs(text: string): string {
  if (text.length <= RECORDED_ARGS_CHARS) return text;
  return `sha256:${createHash("sha256").update(text).digest("hex")}`;
}
