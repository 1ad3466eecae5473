import { jsonEncoder, type ToolResultEncoder } from "./encoder.js";
import { error, isThenable, ok } from "./results.js";
import { memoryResultStore, type ResultStore } from "./result-store.js";
import { defineTool, type Tool } from "./tool.js";
import { reportUnhandled } from "../util/report-unhandled.js";
import { describe } from "../util/safe.js";

/** Options of {@link resultPages}. */
export interface ResultPagesOptions {
  /** Characters of a result the model reads at once (an integer from 256). */
  readonly budget: number;
  /** Where whole results are kept. Default {@link memoryResultStore} (100 results). */
  readonly store?: ResultStore;
  /** The read tool's name. Default `"read_result"`. */
  readonly name?: string;
  /** What turns values into text before the budget applies. Default {@link jsonEncoder}. */
  readonly encoder?: ToolResultEncoder;
}

/** What {@link resultPages} gives: the run's encoder, and the tool that pages through results. */
export interface ResultPages {
  /** Pass as `toolResultEncoder`: a result over the budget is kept whole and answered with its head and a handle. */
  readonly encoder: ToolResultEncoder;
  /** Add to the tools: reads a kept result from an offset, a page at a time. */
  readonly readTool: Tool<{ handle: string; offset?: number }>;
}

/**
 * An output budget that loses nothing: a result longer than `budget` is kept whole in a store,
 * and the model reads its head with a handle and a read tool to page through the rest (where
 * `outputBudget` cuts the middle out for good). The handle is a hash of the text, so the same
 * result gets the same handle in any process.
 *
 * @throws {TypeError} for a budget under 256, or a store, name or encoder of the wrong kind.
 *
 * @example
 * const pages = resultPages({ budget: 4_000 });
 * runAgent({ model, tools: [...tools, pages.readTool], toolResultEncoder: pages.encoder, messages });
 * // a 50,000-character result reads: '<first 3,9xx characters>
 * // [… 46,1xx more characters: read_result({"handle":"r3f2a…","offset":3873}) reads on]'
 */
export function resultPages(options: ResultPagesOptions): ResultPages {
  if (typeof options !== "object" || options === null) throw new TypeError(`Expected resultPages options to be an object, got ${describe(options)}`);
  const { budget, store = memoryResultStore(), name = "read_result", encoder: inner = jsonEncoder } = options;
  if (!(Number.isInteger(budget) && budget >= 256)) throw new TypeError(`Expected \`budget\` to be an integer from 256, got ${describe(budget)}`);
  if (typeof store?.put !== "function" || typeof store.get !== "function")
    throw new TypeError(`Expected \`store\` to have put and get, got ${describe(store)}`);
  if (typeof inner?.encode !== "function" || typeof inner.encodeError !== "function")
    throw new TypeError(`Expected \`encoder\` to be a ToolResultEncoder, got ${describe(inner)}`);
  // Room for the note after a page: its length never exceeds this.
  const room = budget - 160;
  const page = (text: string, handle: string, offset: number): string => {
    const end = safeEnd(text, Math.min(text.length, offset + room));
    const rest = text.length - end;
    const body = text.slice(offset, end);
    return rest === 0 ? body : `${body}\n[… ${rest} more characters: ${name}(${JSON.stringify({ handle, offset: end })}) reads on]`;
  };
  const encoder: ToolResultEncoder = {
    encode(value) {
      const text = inner.encode(value);
      if (text.length <= budget) return text;
      const handle = handleOf(text);
      let put: void | PromiseLike<void>;
      try {
        put = store.put(handle, text);
      } catch (e) {
        reportUnhandled(e);
        throw e; // the call's `encoding_failed`: a handle the store never got would mislead the model
      }
      if (isThenable(put)) Promise.resolve(put).then(undefined, reportUnhandled);
      return page(text, handle, 0);
    },
    encodeError: (reason) => inner.encodeError(reason),
  };
  const readTool = defineTool({
    name,
    description: "Read more of a long tool result, from the handle and offset its answer gave.",
    schema: {
      type: "object",
      properties: { handle: { type: "string", minLength: 1 }, offset: { type: "integer", minimum: 0 } },
      required: ["handle"],
      additionalProperties: false,
    } as const,
    handler: async ({ handle, offset = 0 }) => {
      const text = await store.get(handle);
      if (text === undefined)
        return error(`No kept result has the handle ${JSON.stringify(handle)}: it expired or was never given; call the tool that made it again`);
      if (offset >= text.length) return error(`Offset ${offset} is past the end: the result has ${text.length} characters`);
      return ok(page(text, handle, offset));
    },
  });
  return { encoder, readTool };
}

/** FNV-1a over the text, twice with different seeds, as hex: short, stable across processes. */
function handleOf(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000197);
  }
  return `r${(a >>> 0).toString(16).padStart(8, "0")}${(b >>> 0).toString(16).padStart(8, "0")}`;
}

/** `end`, one less when it would split a surrogate pair. */
function safeEnd(text: string, end: number): number {
  const code = text.charCodeAt(end - 1);
  return end < text.length && code >= 0xd800 && code <= 0xdbff ? end - 1 : end;
}
