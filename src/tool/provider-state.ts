import { describe, isPlainRecord } from "../util/safe.js";

/**
 * A provider's opaque state on a piece of the model's reply, kept as it came because the provider
 * wants it back on the next request: a Gemini `thoughtSignature` on a function call or a text,
 * an OpenAI Responses item's `id`. `provider` names whose it is; a provider's converter sends
 * back only its own state and drops another's (it could not verify it).
 */
export interface ProviderState {
  /** Whose `data` this is (`"ai-sdk"`, `"openai-responses"`). */
  readonly provider: string;
  /** The provider's state, as it came: give it back unchanged. */
  readonly data: Readonly<Record<string, unknown>>;
}

/** The shape {@link ProviderState} promises (shared by the tool-call and conversation checks). */
export function isProviderState(value: unknown): value is ProviderState {
  return isPlainRecord(value) && typeof value.provider === "string" && value.provider !== "" && isPlainRecord(value.data);
}

/**
 * Check a message's `textState`: each a provider state whose `textEnd` is inside the message's
 * text and no earlier than the one before it.
 *
 * @throws {TypeError} naming `at` and the entry.
 */
export function assertTextState(states: unknown, content: string, at: string): void {
  if (states === undefined) return;
  if (!Array.isArray(states)) throw new TypeError(`Expected \`${at}.textState\` to be an array of text states, got ${describe(states)}`);
  let end = 0;
  states.forEach((state: unknown, j) => {
    const where = `${at}.textState[${j}]`;
    if (!isProviderState(state)) throw new TypeError(`Expected \`${where}\` to be { provider: string, data: object, textEnd: number }, got ${describe(state)}`);
    const textEnd = (state as { textEnd?: unknown }).textEnd;
    if (typeof textEnd !== "number" || !Number.isInteger(textEnd) || textEnd < end || textEnd > content.length)
      throw new TypeError(
        `Expected \`${where}.textEnd\` to be an integer from ${end} to ${content.length} (the message's text length), got ${describe(textEnd)}`,
      );
    end = textEnd;
  });
}
