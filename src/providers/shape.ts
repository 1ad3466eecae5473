/** Helpers for recognising what a user passed, so a wrong object gets a message that says what to pass. */

/** A non-null, non-array object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A short description of a value for an error message; never reads a property. */
export function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return "a string";
  return typeof value === "object" ? "an object" : String(value);
}

/**
 * An array a user passed as a reply's items (Anthropic content blocks, Responses output items),
 * checked to be objects with a string `type`; otherwise a `TypeError` that starts with
 * `expected` and names the items wanted (`noun`).
 */
export function typedItems<Item>(items: readonly unknown[], expected: string, noun: string): readonly Item[] {
  if (!items.every((item) => isRecord(item) && typeof item.type === "string")) {
    throw new TypeError(`${expected}, got an array whose items are not all ${noun} (objects with a \`type\`)`);
  }
  return items as readonly Item[];
}

/** Which provider's response `value` looks like, to point at the right parser. */
export function providerShape(value: Record<string, unknown>): "chat" | "responses" | "anthropic" | undefined {
  if (Array.isArray(value.choices)) return "chat";
  if (value.object === "response" || Array.isArray(value.output)) return "responses";
  if (value.type === "message" && Array.isArray(value.content)) return "anthropic";
  return undefined;
}
