import type { Message, ToolMessage } from "../../tool/message.js";
import { describe } from "../../util/safe.js";
import type { PrepareTurn } from "./prepare-turn.js";

/** Options of {@link clearToolResults}. */
export interface ClearToolResultsOptions {
  /** The latest turns whose tool results the model still reads in full (at least 1). */
  readonly keepTurns: number;
  /** Results this short or shorter are kept whatever their age (characters). Default 200. */
  readonly keepUnder?: number;
}

/**
 * A `prepareTurn` that sends the model placeholders for tool results older than the last
 * `keepTurns` turns (as Anthropic's `clear_tool_uses` and the AI SDK's `pruneMessages` do): the
 * calls and their answers stay in the request, in order, so every provider still takes it, but
 * a long old result costs a line. The conversation itself keeps every result; only the request
 * is lighter. Compose it with other hooks with {@link chainTurns}.
 *
 * @throws {TypeError} when `keepTurns` is not a positive integer or `keepUnder` not a count.
 *
 * @example
 * runAgent({ model, tools, messages, prepareTurn: clearToolResults({ keepTurns: 2 }) });
 * // a result from three turns back reaches the model as:
 * // "[result cleared to save context: 18,304 characters; call search_docs again if you need it]"
 */
export function clearToolResults(options: ClearToolResultsOptions): PrepareTurn {
  if (typeof options !== "object" || options === null) throw new TypeError(`Expected clearToolResults options to be an object, got ${describe(options)}`);
  const { keepTurns, keepUnder = 200 } = options;
  if (!(Number.isInteger(keepTurns) && keepTurns > 0)) throw new TypeError(`Expected \`keepTurns\` to be a positive integer, got ${describe(keepTurns)}`);
  if (!(Number.isInteger(keepUnder) && keepUnder >= 0)) throw new TypeError(`Expected \`keepUnder\` to be a non-negative integer, got ${describe(keepUnder)}`);
  return ({ messages }) => {
    const cut = boundary(messages, keepTurns);
    if (cut <= 0) return undefined;
    let changed = false;
    const request = messages.map((message, i) => {
      if (i >= cut || message.role !== "tool" || message.content.length <= keepUnder) return message;
      changed = true;
      return cleared(message);
    });
    return changed ? { messages: request } : undefined;
  };
}

/** Index of the first message of the last `keep` assistant turns; results before it are old. */
function boundary(messages: readonly Message[], keep: number): number {
  let seen = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    if ((messages[i] as Message).role === "assistant" && ++seen === keep) return i;
  }
  return 0;
}

function cleared(message: ToolMessage): ToolMessage {
  const size = message.content.length.toLocaleString("en-US");
  const text = `[result cleared to save context: ${size} characters; call ${message.name} again if you need it]`;
  const { parts: _parts, ...rest } = message;
  return { ...rest, content: text };
}
