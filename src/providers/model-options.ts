import { isRecord, kindOf } from "./shape.js";

/**
 * Check a model function's options up front, so a wrong client fails where the model is made,
 * not on the loop's first turn: `options` an object, `client` with the SDK method at `path`,
 * `model` a non-empty string.
 */
export function assertClient(options: unknown, fn: string, clientName: string, path: readonly string[]): void {
  if (!isRecord(options)) throw new TypeError(`Expected \`${fn}\` options to be an object, got ${kindOf(options)}`);
  let at: unknown = options.client;
  for (const key of path) at = isRecord(at) || typeof at === "function" ? (at as Record<string, unknown>)[key] : undefined;
  if (typeof at !== "function") {
    throw new TypeError(`Expected \`client\` of \`${fn}\` to be ${clientName} (with \`${path.join(".")}\`), got ${kindOf(options.client)}`);
  }
  if (typeof options.model !== "string" || options.model === "") {
    throw new TypeError(`Expected \`model\` of \`${fn}\` to be a non-empty string, got ${typeof options.model === "string" ? '""' : kindOf(options.model)}`);
  }
}
