import { isRecord, kindOf } from "./shape.js";

/**
 * The text of a history message's content: a string, or an array of parts whose text lives
 * in `text` (or `refusal`) for the part types in `textTypes`. Any other part (an image, a
 * file, audio) has no place in toolrx's text conversation: a `TypeError` naming `where`.
 */
export function historyText(content: unknown, textTypes: ReadonlySet<string>, where: string): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) throw new TypeError(`Expected \`content\` of ${where} to be a string or an array of parts, got ${kindOf(content)}`);
  let text = "";
  content.forEach((part: unknown, j) => {
    const type = isRecord(part) ? part.type : undefined;
    if (!isRecord(part) || typeof type !== "string" || !textTypes.has(type)) {
      const got = isRecord(part) ? `a ${JSON.stringify(part.type)} part` : kindOf(part);
      throw new TypeError(`Expected part ${j} of ${where} to be text (${[...textTypes].join(", ")}), got ${got}: toolrx's conversation holds text only`);
    }
    const value = type === "refusal" ? part.refusal : part.text;
    if (typeof value !== "string")
      throw new TypeError(`Expected part ${j} of ${where} to have a string \`${type === "refusal" ? "refusal" : "text"}\`, got ${kindOf(value)}`);
    text += value;
  });
  return text;
}

/** The name of the call `id` answers, from the calls made before it; a `TypeError` when none made it. */
export function calledName(names: ReadonlyMap<string, string>, id: string, where: string): string {
  const name = names.get(id);
  if (name === undefined)
    throw new TypeError(`Expected ${where} to answer a tool call made before it, got an answer to "${id}", which no earlier message called`);
  return name;
}
