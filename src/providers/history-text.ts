import { checkParts, type ContentPart } from "../index.js";
import { dataUrlParts } from "../internal.js";
import { isRecord, kindOf } from "./shape.js";

/**
 * The text of a history message's content: a string, or an array of parts whose text lives
 * in `text` (or `refusal`) for the part types in `textTypes`. Any other part is a `TypeError`
 * naming `where` (where a message may carry images and files, {@link historyContent} reads them).
 */
export function historyText(content: unknown, textTypes: ReadonlySet<string>, where: string): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) throw new TypeError(`Expected \`content\` of ${where} to be a string or an array of parts, got ${kindOf(content)}`);
  let text = "";
  content.forEach((part: unknown, j) => {
    const type = isRecord(part) ? part.type : undefined;
    if (!isRecord(part) || typeof type !== "string" || !textTypes.has(type)) {
      const got = isRecord(part) ? `a ${JSON.stringify(part.type)} part` : kindOf(part);
      throw new TypeError(`Expected part ${j} of ${where} to be text (${[...textTypes].join(", ")}), got ${got}: only text has a place here`);
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

/** A provider's non-text part as a toolrx content part; undefined for one toolrx has no part for. */
export type PartReader = (part: Record<string, unknown>) => ContentPart | undefined;

/**
 * A history message's text and content parts: the text parts before the first image or file
 * are its `content`; from there on every part, text included, is one of its `parts`, in order
 * (as the converters write a message: its text, then its parts). A part no reader knows (audio,
 * a file by id) is a `TypeError` naming `where`: toolrx cannot send it back.
 */
export function historyContent(
  content: unknown,
  textTypes: ReadonlySet<string>,
  readPart: PartReader,
  where: string,
): { content: string; parts?: ContentPart[] } {
  if (typeof content === "string" || !Array.isArray(content)) return { content: historyText(content, textTypes, where) };
  const at = content.findIndex((part: unknown) => !isRecord(part) || typeof part.type !== "string" || !textTypes.has(part.type));
  if (at === -1) return { content: historyText(content, textTypes, where) };
  const parts = content.slice(at).map((part: unknown, k): ContentPart => {
    const j = at + k;
    if (isRecord(part) && typeof part.type === "string" && textTypes.has(part.type)) return { type: "text", text: historyText([part], textTypes, where) };
    const read = isRecord(part) ? readPart(part) : undefined;
    if (read === undefined) {
      const got = isRecord(part) ? `a ${JSON.stringify(part.type)} part` : kindOf(part);
      throw new TypeError(`Expected part ${j} of ${where} to be text, an image or a file, got ${got}: toolrx has no content part for it`);
    }
    return read;
  });
  return { content: historyText(content.slice(0, at), textTypes, where), parts: [...checkParts(parts, where)] };
}

/** An image or file given as a URL: its bytes and media type when it is a base64 data: URL. */
export function partFromUrl(type: "image" | "file", url: unknown, name?: unknown): ContentPart | undefined {
  if (typeof url !== "string" || url === "") return undefined;
  const inline = dataUrlParts(url);
  const named = type === "file" && typeof name === "string" && name !== "" ? { name } : {};
  return inline === undefined ? { type, url, ...named } : { type, mediaType: inline.mediaType, data: inline.data, ...named };
}
