import type { Validation } from "./types.js";

/**
 * A validator's success as toolrx's {@link Validation}: handlers take an object of arguments,
 * so a schema whose output is anything else (a transform to a string, say) fails the call.
 */
export function objectOutput(value: unknown): Validation {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    return { ok: true, value: value as Record<string, unknown> };
  }
  return { ok: false, issues: [{ code: "invalid_type", path: [], message: "schema output is not an object" }] };
}
