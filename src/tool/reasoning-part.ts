import type { ReasoningPart } from "./message.js";
import { isPlainRecord } from "../util/safe.js";

/** The shape {@link ReasoningPart} promises (shared with the conversation check). */
export function isReasoningPart(part: unknown): part is ReasoningPart {
  return (
    isPlainRecord(part) &&
    typeof part.text === "string" &&
    (part.provider === undefined || typeof part.provider === "string") &&
    (part.data === undefined || isPlainRecord(part.data))
  );
}
