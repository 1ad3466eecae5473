import { partMarker, type ContentPart, type FilePart, type ImagePart } from "../index.js";
import { dataUrlParts, urlOf } from "../internal.js";

/**
 * Each provider's blocks for a message's text and its content parts. A part the provider cannot
 * take where it stands becomes a text block with its marker (`[image: image/png, 2.1 kB]`),
 * never a silent drop; docs/providers.md has the table.
 */

/** A Chat Completions user content part. */
export type ChatContentPart =
  | { type: "text"; text: string }
  | { type: "image_url"; image_url: { url: string } }
  | { type: "file"; file: { file_data: string; filename: string } };

/**
 * Chat Completions, a user message: text, `image_url` (a URL or a data: URL) and `file`
 * (base64 only: the API takes no file URL). A file given by URL and a resource are markers.
 */
export function chatUserParts(content: string, parts: readonly ContentPart[]): ChatContentPart[] {
  return withText(content, parts, (part): ChatContentPart => {
    if (part.type === "image") return { type: "image_url", image_url: { url: urlOf(part) } };
    if (part.type === "file" && part.data !== undefined) return { type: "file", file: { file_data: urlOf(part), filename: part.name ?? "file" } };
    return { type: "text", text: partMarker(part) };
  });
}

/** A Responses API input content part (a user message's, or a function call output's). */
export type ResponsesContentPart =
  | { type: "input_text"; text: string }
  | { type: "input_image"; image_url: string; detail: "auto" }
  | { type: "input_file"; file_data: string; filename: string }
  | { type: "input_file"; file_url: string };

/** Responses API: text, `input_image` and `input_file` (base64 or URL) in user messages and tool outputs alike; a resource is a marker. */
export function responsesParts(content: string, parts: readonly ContentPart[]): ResponsesContentPart[] {
  return withText(content, parts, (part): ResponsesContentPart => {
    if (part.type === "image") return { type: "input_image", image_url: urlOf(part), detail: "auto" };
    if (part.type === "file") {
      return part.data !== undefined
        ? { type: "input_file", file_data: urlOf(part), filename: part.name ?? "file" }
        : { type: "input_file", file_url: part.url as string };
    }
    return { type: "input_text", text: partMarker(part) };
  });
}

/** The image media types the Messages API takes. */
const ANTHROPIC_IMAGE_TYPES = ["image/jpeg", "image/png", "image/gif", "image/webp"] as const;
type AnthropicImageType = (typeof ANTHROPIC_IMAGE_TYPES)[number];

/** Where an Anthropic image or document block's bytes are. */
type AnthropicSource<M extends string> = { type: "base64"; media_type: M; data: string } | { type: "url"; url: string };

/** An Anthropic content block for a user message or a tool result. */
export type AnthropicContentBlock =
  | { type: "text"; text: string }
  | { type: "image"; source: AnthropicSource<AnthropicImageType> }
  | { type: "document"; source: AnthropicSource<"application/pdf"> };

/**
 * Anthropic Messages: `text`, `image` (JPEG, PNG, GIF or WebP; base64 or URL) and `document`
 * (a PDF, base64 or URL) in user messages and tool results alike. Another media type, a data:
 * URL that is not base64, and a resource are markers (a resource's marker carries its text).
 */
export function anthropicBlocks(content: string, parts: readonly ContentPart[]): AnthropicContentBlock[] {
  return withText(content, parts, (part): AnthropicContentBlock => {
    if (part.type === "image") {
      const source = anthropicSource(part, isAnthropicImage);
      if (source !== undefined) return { type: "image", source };
    } else if (part.type === "file") {
      const source = anthropicSource(part, (mediaType) => mediaType === "application/pdf");
      if (source !== undefined) return { type: "document", source };
    }
    return { type: "text", text: partMarker(part) };
  });
}

function isAnthropicImage(mediaType: string): mediaType is AnthropicImageType {
  return (ANTHROPIC_IMAGE_TYPES as readonly string[]).includes(mediaType);
}

/**
 * The block's source: the bytes (given, or from a base64 data: URL) when the API takes their
 * media type, or the URL itself (an http(s) image; a PDF only when `mediaType` says it is one).
 */
function anthropicSource<M extends string>(part: ImagePart | FilePart, takes: (mediaType: string) => mediaType is M): AnthropicSource<M> | undefined;
function anthropicSource(part: ImagePart | FilePart, takes: (mediaType: string) => boolean): AnthropicSource<string> | undefined {
  const inline = part.data === undefined ? dataUrlParts(part.url as string) : { mediaType: part.mediaType as string, data: part.data };
  const mediaType = (part.mediaType ?? inline?.mediaType)?.toLowerCase();
  if (inline !== undefined) return mediaType !== undefined && takes(mediaType) ? { type: "base64", media_type: mediaType, data: inline.data } : undefined;
  const url = part.url as string;
  if (url.toLowerCase().startsWith("data:")) return undefined;
  // An image URL of unstated type is the API's to fetch and judge; a document must say it is a PDF.
  const taken = mediaType === undefined ? part.type === "image" : takes(mediaType);
  return taken ? { type: "url", url } : undefined;
}

/** The message's text (when there is any) as the first block, then a block per part. */
function withText<B>(content: string, parts: readonly ContentPart[], blockOf: (part: ContentPart) => B): B[] {
  const blocks: B[] = [];
  if (content.trim() !== "") blocks.push(blockOf({ type: "text", text: content }));
  // An empty text part carries nothing, and Anthropic refuses empty text blocks.
  for (const part of parts) if (part.type !== "text" || part.text.trim() !== "") blocks.push(blockOf(part));
  return blocks;
}
