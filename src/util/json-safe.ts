import { isError } from "./safe.js";

/**
 * `value` as plain JSON data, for a wire that carries JSON alone (a UI stream's data parts, an
 * AG-UI custom event): an `Error` becomes `{ name, message }` (never its stack), and what JSON
 * cannot carry (a function, a bigint, a cycle, a getter that throws) becomes `null` instead of
 * breaking the stream.
 */
export function jsonSafe(value: unknown): unknown {
  try {
    const text = JSON.stringify(value, (_key, v: unknown) => {
      if (isError(v)) return { name: v.name, message: v.message };
      if (typeof v === "bigint") return v.toString();
      return v;
    });
    return text === undefined ? null : (JSON.parse(text) as unknown);
  } catch {
    return null;
  }
}
