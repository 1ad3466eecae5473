import { describe, isPlainRecord } from "../util/safe.js";
import type { ProviderItem } from "./message.js";

/** The providers whose hosted items a conversation can carry. */
const PROVIDERS: ReadonlySet<string> = /* @__PURE__ */ new Set(["anthropic", "openai-responses"]);

/**
 * What is wrong with `value` as the `provider` and `item` of a {@link ProviderItem}, or undefined
 * when nothing is: a converter must be able to tell whose item it is and what it is.
 */
export function providerItemIssue(value: { readonly provider?: unknown; readonly item?: unknown }): string | undefined {
  if (typeof value.provider !== "string" || !PROVIDERS.has(value.provider))
    return `a \`provider\` of "anthropic" or "openai-responses", got ${describe(value.provider)}`;
  if (!isPlainRecord(value.item) || typeof value.item.type !== "string" || value.item.type === "")
    return `an \`item\` that is an object with a string \`type\`, got ${describe(value.item)}`;
  return undefined;
}

/**
 * Check a message's provider items: each well formed, its `textOffset` inside the message's text
 * and no earlier than the item before it.
 *
 * @throws {TypeError} naming `at` and the item.
 */
export function assertProviderItems(items: unknown, content: string, at: string): asserts items is readonly ProviderItem[] | undefined {
  if (items === undefined) return;
  if (!Array.isArray(items)) throw new TypeError(`Expected \`${at}.providerItems\` to be an array of provider items, got ${describe(items)}`);
  let offset = 0;
  items.forEach((item: unknown, j) => {
    const where = `${at}.providerItems[${j}]`;
    if (!isPlainRecord(item)) throw new TypeError(`Expected \`${where}\` to be a provider item, got ${describe(item)}`);
    const issue = providerItemIssue(item);
    if (issue !== undefined) throw new TypeError(`Expected \`${where}\` to have ${issue}`);
    const offsetOf = item.textOffset;
    if (typeof offsetOf !== "number" || !Number.isInteger(offsetOf) || offsetOf < offset || offsetOf > content.length)
      throw new TypeError(
        `Expected \`${where}.textOffset\` to be an integer from ${offset} to ${content.length} (the message's text length), got ${describe(offsetOf)}`,
      );
    offset = offsetOf;
  });
}
