import { z } from "zod";

/**
 * A `CallToolResult` as the spec (2025-11-25) has it, for the answers no SDK checked for toolrx:
 * a task's `tasks/result` and a 2026-07-28 task's inline result come through `request()` with a
 * schema that takes any object. A plain `tools/call` is checked by the client SDK itself; this
 * refuses what it would refuse, so a task's bad answer lists the same problems.
 */
const RESOURCE = z.union([z.looseObject({ uri: z.string(), text: z.string() }), z.looseObject({ uri: z.string(), blob: z.string() })]);
const BLOCK = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("text"), text: z.string() }),
  z.looseObject({ type: z.literal("image"), data: z.string(), mimeType: z.string() }),
  z.looseObject({ type: z.literal("audio"), data: z.string(), mimeType: z.string() }),
  z.looseObject({ type: z.literal("resource_link"), uri: z.string(), name: z.string() }),
  z.looseObject({ type: z.literal("resource"), resource: RESOURCE }),
]);
const CALL_TOOL_RESULT = z.looseObject({
  // The SDKs take a result without `content` as an empty one (a structured-only answer).
  content: z.optional(z.array(BLOCK)),
  structuredContent: z.optional(z.record(z.string(), z.unknown())),
  isError: z.optional(z.boolean()),
});

/**
 * What is wrong with `value` as a `CallToolResult`, as `path: message; ...` in zod's words
 * (`content: Invalid input: expected array, received string`), or `undefined` when it is one.
 */
export function callToolResultProblems(value: unknown): string | undefined {
  if (isTextResult(value)) return undefined;
  const parsed = CALL_TOOL_RESULT.safeParse(value);
  if (parsed.success) return undefined;
  return parsed.error.issues.map((issue) => (issue.path.length === 0 ? issue.message : `${issue.path.map(String).join(".")}: ${issue.message}`)).join("; ");
}

/**
 * The commonest answer, text blocks and JSON data, judged without zod: parsing it cost more than
 * the rest of toolrx's reading of a plain call. Whatever else `false` sends to the full check,
 * which a property holds this to (it never passes what zod refuses).
 */
export function isTextResult(value: unknown): boolean {
  if (!isJsonObject(value)) return false;
  const { content, structuredContent, isError } = value;
  if (isError !== undefined && typeof isError !== "boolean") return false;
  if (structuredContent !== undefined && !isJsonObject(structuredContent)) return false;
  if (content === undefined) return true;
  if (!Array.isArray(content)) return false;
  for (const block of content) {
    if (!isJsonObject(block) || block.type !== "text" || typeof block.text !== "string") return false;
  }
  return true;
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}
