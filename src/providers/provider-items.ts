import type { AssistantMessage, Message, ProviderItem } from "../index.js";

/** Whose wire format a converter writes: the two that carry hosted items, and Chat Completions, which has none. */
type Writer = ProviderItem["provider"] | "openai-chat";

/**
 * An assistant message's text and provider items in the order the model produced them: the text
 * is cut at each item's `textOffset`. An item of another provider is a `TypeError` naming it and
 * the message: dropping it would send a conversation the model never had.
 *
 * @param text The blocks for a stretch of text (none for empty text).
 * @param item The block for one of `writer`'s own items, as the provider sent it.
 */
export function interleaved<B>(
  message: AssistantMessage,
  writer: Writer,
  conversation: readonly Message[],
  fn: string,
  text: (stretch: string) => readonly B[],
  item: (item: ProviderItem["item"]) => B,
): B[] {
  const items = message.providerItems ?? [];
  if (items.length === 0) return [...text(message.content)];
  const blocks: B[] = [];
  let from = 0;
  for (const each of items) {
    if (each.provider !== writer) throw foreignItem(message, each, writer, conversation, fn);
    blocks.push(...text(message.content.slice(from, each.textOffset)), item(each.item));
    from = each.textOffset;
  }
  blocks.push(...text(message.content.slice(from)));
  return blocks;
}

/** The error for an item `writer` cannot send: whose it is, what it is, where, and what to do. */
export function foreignItem(message: AssistantMessage, item: ProviderItem, writer: Writer, conversation: readonly Message[], fn: string): TypeError {
  const where = conversation.indexOf(message);
  return new TypeError(
    `Expected message ${where} (assistant) of \`${fn}\` to carry no ${item.provider} provider items, got a ${JSON.stringify(item.item.type)} item: ` +
      `${item.provider} ran it, and ${writer === "openai-chat" ? "Chat Completions has no hosted tool items" : `${writer} cannot take it`}; ` +
      `send this conversation to ${item.provider}, or drop the item (and what the model said about it) first`,
  );
}
