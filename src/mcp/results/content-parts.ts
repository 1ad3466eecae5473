import { checkParts, type ContentPart } from "../../index.js";
import { isPlainRecord } from "../../util/safe.js";

/**
 * Content parts across MCP, both ways. `mcpTools`: a server's `image` and `audio` blocks and
 * embedded `resource` blobs become image, audio and file parts (their markers stay in the text, so
 * a provider that cannot take a part still reads what was there); a `resource_link` has no bytes:
 * it stays a marker. `serveTools`: a toolrx tool's parts become `image`, `audio`,
 * `resource_link` and embedded `resource` blocks after its text.
 */

/** The toolrx parts of a `CallToolResult`'s content blocks; undefined when there are none. */
export function partsOfBlocks(blocks: readonly unknown[]): ContentPart[] | undefined {
  const parts: ContentPart[] = [];
  for (const block of blocks) {
    const part = isPlainRecord(block) ? partOfBlock(block) : undefined;
    if (part === undefined) continue;
    // A block the server got wrong (bad base64, no media type) keeps only its marker in the text.
    try {
      parts.push(...checkParts([part], "an MCP content block"));
    } catch {
      // the marker in the text stands for it
    }
  }
  return parts.length === 0 ? undefined : parts;
}

function partOfBlock(block: Record<string, unknown>): ContentPart | undefined {
  switch (block.type) {
    case "image":
    case "audio":
      return { type: block.type, mediaType: String(block.mimeType), data: String(block.data) };
    case "resource": {
      const resource = isPlainRecord(block.resource) ? block.resource : {};
      if (typeof resource.blob !== "string") return undefined; // a text resource is in the text already
      return { type: "file", mediaType: String(resource.mimeType), data: resource.blob, name: String(resource.uri) };
    }
    default:
      return undefined;
  }
}

/** An MCP content block. */
export type McpContentBlock =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string }
  | { type: "audio"; data: string; mimeType: string }
  | { type: "resource_link"; uri: string; name: string; mimeType?: string }
  | { type: "resource"; resource: { uri: string; mimeType: string; blob: string } | { uri: string; mimeType?: string; text: string } };

/** A toolrx part as an MCP content block (an image, audio clip or file by URL is a `resource_link`). */
export function blockOfPart(part: ContentPart, index: number): McpContentBlock {
  switch (part.type) {
    case "text":
      return { type: "text", text: part.text };
    case "image":
    case "audio":
    case "file": {
      const name = part.type === "file" && part.name !== undefined ? part.name : `${part.type}-${index + 1}`;
      if (part.data === undefined) {
        return { type: "resource_link", uri: part.url as string, name, ...(part.mediaType === undefined ? {} : { mimeType: part.mediaType }) };
      }
      const mimeType = part.mediaType as string;
      if (part.type !== "file") return { type: part.type, data: part.data, mimeType };
      return { type: "resource", resource: { uri: `attachment:${encodeURIComponent(name)}`, mimeType, blob: part.data } };
    }
    default:
      if (part.text !== undefined) {
        return { type: "resource", resource: { uri: part.uri, text: part.text, ...(part.mimeType === undefined ? {} : { mimeType: part.mimeType }) } };
      }
      return { type: "resource_link", uri: part.uri, name: part.name ?? part.uri, ...(part.mimeType === undefined ? {} : { mimeType: part.mimeType }) };
  }
}
