import { McpToolsError } from "./mcp-tools-error.js";
import { describe } from "../../util/safe.js";

/** What a `rename` function is told about each tool. */
export interface McpToolNaming {
  /** The server's key, or `""` for a single unnamed server. */
  server: string;
  /** The tool's name on the server. */
  name: string;
  /** The name toolrx would give it: prefixed, made provider-safe, shortened. */
  defaultName: string;
}

/** Names providers accept for a function tool (OpenAI and Anthropic alike). */
const PROVIDER_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_LENGTH = 64;

/**
 * The name a model sees for an MCP tool: `<prefix>__<name>` (no prefix for a single unnamed
 * server), with every character a provider refuses replaced by `_`, and names over 64
 * characters cut to 55 plus `_` and an 8-digit hash of the whole name, so two long names that
 * share a beginning stay apart. The same inputs always give the same name.
 *
 * @example
 * defaultToolName("github", "repos/search.code"); // "github__repos_search_code"
 */
export function defaultToolName(prefix: string, name: string): string {
  const full = prefix === "" ? name : `${prefix}__${name}`;
  const safe = full.replace(/[^a-zA-Z0-9_-]/g, "_");
  if (safe.length <= MAX_LENGTH) return safe;
  return `${safe.slice(0, MAX_LENGTH - 9)}_${fnv1a(full)}`;
}

/** Assigns names, refusing two tools the same name. */
export class ToolNamer {
  readonly #taken = new Map<string, { server: string; name: string }>();
  readonly #rename: ((naming: McpToolNaming) => string) | undefined;

  constructor(rename: ((naming: McpToolNaming) => string) | undefined) {
    this.#rename = rename;
  }

  /** The model-facing name of `name` on `server` (prefixed with `prefix`). */
  assign(server: string, prefix: string, name: string): string {
    const defaultName = defaultToolName(prefix, name);
    let chosen = defaultName;
    if (this.#rename !== undefined) {
      chosen = this.#rename({ server, name, defaultName }) as unknown as string;
      if (typeof chosen !== "string" || !PROVIDER_NAME.test(chosen)) {
        throw new TypeError(`Expected \`rename\` to return a name of 1 to 64 letters, digits, "_" or "-" for tool "${name}", got ${describe(chosen)}`);
      }
    }
    const holder = this.#taken.get(chosen);
    if (holder !== undefined) {
      const where = (s: string) => (s === "" ? "" : ` of server "${s}"`);
      throw new McpToolsError(
        "duplicate_name",
        `tool "${name}" would be named "${chosen}", which tool "${holder.name}"${where(holder.server)} already has; ` +
          "give the servers distinct prefixes or pass `rename` to tell them apart",
        { server, toolName: name },
      );
    }
    this.#taken.set(chosen, { server, name });
    return chosen;
  }

  /** Give back the name of `name` on `server`: the tool was left out. */
  release(server: string, name: string): void {
    for (const [chosen, holder] of this.#taken) {
      if (holder.server === server && holder.name === name) {
        this.#taken.delete(chosen);
        return;
      }
    }
  }
}

/** 32-bit FNV-1a as 8 hex digits: short, stable across runs and platforms. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}
