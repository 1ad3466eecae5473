import { isRecord, kindOf } from "./shape.js";

/**
 * The provider's own tool search, as a model function's `toolSearch` option: every tool but
 * `alwaysLoaded` is sent with `defer_loading: true`, next to the provider's search tool, and the
 * provider searches and loads them itself (its search calls and results come back as the
 * turn's `providerItems`). For any provider, toolrx's own `toolSearch` does the same on the client.
 */
export interface NativeToolSearch {
  /** Tools sent undeferred, by name: the model sees their schemas from the start. Default none. */
  readonly alwaysLoaded?: readonly string[];
}

/** The tool names a `toolSearch` option keeps undeferred, checked; undefined when the option is absent. */
export function alwaysLoadedOf(option: unknown, fn: string, keys: readonly string[] = ["alwaysLoaded"]): ReadonlySet<string> | undefined {
  if (option === undefined) return undefined;
  if (!isRecord(option)) throw new TypeError(`Expected \`toolSearch\` of \`${fn}\` to be an object ({ alwaysLoaded? }), got ${kindOf(option)}`);
  const extra = Object.keys(option).find((key) => !keys.includes(key));
  if (extra !== undefined) throw new TypeError(`Unknown option \`toolSearch.${extra}\` of \`${fn}\`; it takes ${keys.map((k) => `\`${k}\``).join(", ")}`);
  const names = option.alwaysLoaded ?? [];
  if (!Array.isArray(names) || names.some((name) => typeof name !== "string"))
    throw new TypeError(`Expected \`toolSearch.alwaysLoaded\` of \`${fn}\` to be an array of tool names, got ${kindOf(names)}`);
  return new Set(names as string[]);
}
