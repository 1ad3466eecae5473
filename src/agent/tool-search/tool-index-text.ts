import type { JsonSchema } from "../../schema/tool-schema.js";
import { toolJsonSchema, type Tool } from "../../tool/tool.js";
import { stemOf } from "./word-stem.js";

/** A tool's words by field, as {@link LexicalIndex} weighs them. */
export interface ToolFields {
  /** Its name's words, split at `_`, `-`, `.` and case changes. */
  readonly name: readonly string[];
  readonly description: readonly string[];
  /** Its arguments' names and descriptions, nested ones included. */
  readonly arguments: readonly string[];
}

/**
 * The words a tool is found by, by field: its name, its description, and its arguments' names and
 * descriptions. Lower-cased and stemmed ({@link stemOf}), so "refunded" finds `create_refund`.
 */
export function toolFields(tool: Tool): ToolFields {
  const args: string[] = [];
  const schema = schemaOf(tool);
  if (schema !== undefined) argumentWords(schema, args, 0);
  return { name: wordsOf(tool.name), description: wordsOf(tool.description), arguments: args };
}

/**
 * A tool as an embedding model should read it: its name, its description, and a line for each
 * argument (its name, and its description as written), nested arguments by their path. Natural
 * text, not toolrx's word list, so a sentence-embedding model sees what a person would.
 *
 * @example
 * toolText(scale); // "k8s__scale_deployment\nScale a deployment to a number of replicas.\nreplicas: Desired number of replicas"
 */
export function toolText(tool: Tool): string {
  const lines = [tool.name, tool.description];
  const schema = schemaOf(tool);
  if (schema !== undefined) argumentLines(schema, "", lines, 0);
  return lines.filter((line) => line !== "").join("\n");
}

/** A text's words, as {@link toolFields} reads them. */
export function wordsOf(text: string): string[] {
  const spaced = text.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  const words: string[] = [];
  for (const raw of spaced.split(/[^\p{L}\p{N}]+/u)) {
    if (raw.length < 2 || STOP.has(raw)) continue;
    words.push(stemOf(raw));
  }
  return words;
}

function schemaOf(tool: Tool): JsonSchema | undefined {
  try {
    return toolJsonSchema(tool);
  } catch {
    return undefined; // a tool whose schema cannot be shown is still found by name and description
  }
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

function argumentLines(schema: unknown, path: string, into: string[], depth: number): void {
  if (depth > MAX_DEPTH || typeof schema !== "object" || schema === null) return;
  const { properties, items } = schema as { properties?: unknown; items?: unknown };
  if (typeof properties === "object" && properties !== null) {
    for (const [name, sub] of Object.entries(properties)) {
      const at = path === "" ? name : `${path}.${name}`;
      const text = (sub as { description?: unknown } | null)?.description;
      into.push(typeof text === "string" && text !== "" ? `${at}: ${text}` : at);
      argumentLines(sub, at, into, depth + 1);
    }
  }
  if (items !== undefined) argumentLines(items, path, into, depth + 1);
}

/** Whether a lower-cased word is too common to tell tools apart ("the", "for", "your", …). */
export function isStopWord(word: string): boolean {
  return STOP.has(word);
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
