import type { JsonSchema } from "../schema/tool-schema.js";
import { toolJsonSchema, type Tool } from "../tool/tool.js";

/**
 * The words a tool is found by: its name (split at `_`, `-` and case changes), its description,
 * and its arguments' names and descriptions, nested ones included. Lower-cased, with a plural's
 * `s` dropped, so "flights" finds `search_flight`.
 */
export function toolWords(tool: Tool): string[] {
  const words = [...wordsOf(tool.name), ...wordsOf(tool.description)];
  let schema: JsonSchema | undefined;
  try {
    schema = toolJsonSchema(tool);
  } catch {
    schema = undefined; // a tool whose schema cannot be shown is still found by name and description
  }
  if (schema !== undefined) argumentWords(schema, words, 0);
  return words;
}

/** A text's words, as {@link toolWords} reads them. */
export function wordsOf(text: string): string[] {
  const spaced = text.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  const words: string[] = [];
  for (const raw of spaced.split(/[^\p{L}\p{N}]+/u)) {
    if (raw.length < 2 || STOP.has(raw)) continue;
    words.push(raw.length > 3 && raw.endsWith("s") && !raw.endsWith("ss") ? raw.slice(0, -1) : raw);
  }
  return words;
}

/** Deep schemas are cut off: their first levels name what matters, and a hostile one cannot recurse forever. */
const MAX_DEPTH = 4;

function argumentWords(schema: unknown, into: string[], depth: number): void {
  if (depth > MAX_DEPTH || typeof schema !== "object" || schema === null) return;
  const { properties, items, description } = schema as { properties?: unknown; items?: unknown; description?: unknown };
  if (typeof description === "string" && depth > 0) into.push(...wordsOf(description));
  if (typeof properties === "object" && properties !== null) {
    for (const [name, sub] of Object.entries(properties)) {
      into.push(...wordsOf(name));
      argumentWords(sub, into, depth + 1);
    }
  }
  if (items !== undefined) argumentWords(items, into, depth + 1);
}

/** Words too common to tell tools apart. */
const STOP: ReadonlySet<string> = /* @__PURE__ */ new Set([
  "the",
  "an",
  "and",
  "or",
  "of",
  "to",
  "in",
  "on",
  "for",
  "with",
  "by",
  "is",
  "it",
  "be",
  "as",
  "at",
  "from",
  "this",
  "that",
  "its",
  "are",
  "can",
  "will",
  "use",
  "used",
  "when",
  "if",
  "any",
  "all",
  "one",
  "me",
  "my",
  "you",
  "your",
]);
