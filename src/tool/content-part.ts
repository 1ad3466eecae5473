import { assertKnownKeys, knownKeys, type KnownKeys } from "../util/known-keys.js";
import { describe, isArray, isPlainRecord } from "../util/safe.js";

/** Text, as a part among images and files. */
export interface TextPart {
  readonly type: "text";
  readonly text: string;
}

/**
 * An image: its bytes as base64 (`data`) or where to fetch it (`url`: `https:` or a `data:`
 * URL), exactly one of the two.
 */
export interface ImagePart {
  readonly type: "image";
  /** `image/png`, `image/jpeg`, `image/gif`, `image/webp`, …: required with `data`, optional with a `url`. */
  readonly mediaType?: string;
  readonly data?: string;
  readonly url?: string;
}

/**
 * A sound clip: its bytes as base64 (`data`) or where to fetch it (`url`), exactly one of the two.
 * MCP carries it as `audio` content; a provider that takes no audio in a tool result reads its
 * marker, `[audio: audio/wav, 12.3 kB]` (docs/tools.md).
 */
export interface AudioPart {
  readonly type: "audio";
  /** `audio/wav`, `audio/mpeg`, `audio/ogg`, …: required with `data`, optional with a `url`. */
  readonly mediaType?: string;
  readonly data?: string;
  readonly url?: string;
}

/** A document (a PDF, a text file, …): base64 `data` or a `url`, exactly one of the two. */
export interface FilePart {
  readonly type: "file";
  /** `application/pdf`, `text/plain`, …: required with `data`, optional with a `url`. */
  readonly mediaType?: string;
  readonly data?: string;
  readonly url?: string;
  /** The file's name, shown to the model where the provider takes one. */
  readonly name?: string;
}

/**
 * A reference to a resource (an MCP resource, say): its `uri`, and its `text` when the
 * resource is text the model may read inline.
 */
export interface ResourcePart {
  readonly type: "resource";
  readonly uri: string;
  readonly mimeType?: string;
  readonly name?: string;
  readonly text?: string;
}

/**
 * Rich content a tool result or a user message carries beside its text: what MCP tools return
 * and what Anthropic and OpenAI accept as image and file input. A message's `content` stays the
 * text every consumer reads; its `parts` follow that text, in order, for the providers that take
 * them. A provider that cannot take a part gets a text marker in its place (see docs/tools.md),
 * never a silent drop.
 */
export type ContentPart = TextPart | ImagePart | AudioPart | FilePart | ResourcePart;

const KEYS: Readonly<Record<ContentPart["type"], KnownKeys>> = {
  text: /* @__PURE__ */ knownKeys({ type: true, text: true } satisfies Record<keyof TextPart, true>),
  image: /* @__PURE__ */ knownKeys({ type: true, mediaType: true, data: true, url: true } satisfies Record<keyof ImagePart, true>, { mimeType: "mediaType" }),
  audio: /* @__PURE__ */ knownKeys({ type: true, mediaType: true, data: true, url: true } satisfies Record<keyof AudioPart, true>, { mimeType: "mediaType" }),
  file: /* @__PURE__ */ knownKeys({ type: true, mediaType: true, data: true, url: true, name: true } satisfies Record<keyof FilePart, true>, {
    mimeType: "mediaType",
    filename: "name",
  }),
  resource: /* @__PURE__ */ knownKeys({ type: true, uri: true, mimeType: true, name: true, text: true } satisfies Record<keyof ResourcePart, true>, {
    mediaType: "mimeType",
  }),
};

const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Check `parts` (a tool result's or a message's) and return them as a frozen copy, so that a
 * caller changing its array afterwards changes nothing that was checked.
 *
 * @throws {TypeError} naming the part's index and what is wrong with it: an unknown type or key,
 * a media type that is not `type/subtype` (an image's must be `image/…`), neither or both of
 * `data` and `url`, `data` that is not base64, a `url` that is neither `https:`, `http:` nor `data:`.
 */
export function checkParts(parts: unknown, where: string): readonly ContentPart[] {
  if (!isArray(parts)) throw new TypeError(`Expected \`parts\` of ${where} to be an array of content parts, got ${describe(parts)}`);
  const checked: ContentPart[] = [];
  for (let i = 0; i < parts.length; i++) checked.push(checkPart(parts[i], `part ${i} of ${where}`));
  return Object.freeze(checked);
}

function checkPart(part: unknown, where: string): ContentPart {
  if (!isPlainRecord(part)) throw new TypeError(`Expected ${where} to be an object, got ${describe(part)}`);
  const type = part.type;
  if (typeof type !== "string" || !Object.hasOwn(KEYS, type)) {
    throw new TypeError(`Expected \`type\` of ${where} to be one of "text", "image", "audio", "file", "resource", got ${describe(type)}`);
  }
  assertKnownKeys(part, KEYS[type as ContentPart["type"]], { noun: "key", where: ` in ${where}` });
  switch (type) {
    case "text":
      return Object.freeze({ type, text: text(part, "text", where) });
    case "image":
    case "audio":
    case "file": {
      const source = sourceOf(part, where);
      // Bytes need their media type; a URL tells its own (and providers fetch it themselves).
      const mediaType = "data" in source ? text(part, "mediaType", where) : optionalText(part, "mediaType", where);
      // An image's media type is image/…, an audio clip's audio/…; a file's may be any.
      const family = type === "file" ? undefined : `${type}/`;
      if (mediaType !== undefined && (!MEDIA_TYPE.test(mediaType) || (family !== undefined && !mediaType.toLowerCase().startsWith(family)))) {
        throw new TypeError(
          `Expected \`mediaType\` of ${where} to be ${family === undefined ? "a type/subtype media type" : `an ${family}… media type`}, got "${mediaType}"`,
        );
      }
      const name = type === "file" ? optionalText(part, "name", where) : undefined;
      return Object.freeze({
        type,
        ...(mediaType === undefined ? {} : { mediaType }),
        ...source,
        ...(name === undefined ? {} : { name }),
      }) as ImagePart | AudioPart | FilePart;
    }
    default: {
      const uri = text(part, "uri", where);
      const rest: { mimeType?: string; name?: string; text?: string } = {};
      for (const key of ["mimeType", "name", "text"] as const) {
        const value = optionalText(part, key, where);
        if (value !== undefined) rest[key] = value;
      }
      return Object.freeze({ type: "resource", uri, ...rest });
    }
  }
}

function sourceOf(part: Record<string, unknown>, where: string): { data: string } | { url: string } {
  const data = optionalText(part, "data", where);
  const url = optionalText(part, "url", where);
  if ((data === undefined) === (url === undefined)) {
    throw new TypeError(`Expected ${where} to have exactly one of \`data\` (base64) and \`url\`, got ${data === undefined ? "neither" : "both"}`);
  }
  if (data !== undefined) {
    if (data.length % 4 !== 0 || !BASE64.test(data))
      throw new TypeError(`Expected \`data\` of ${where} to be base64 (without a data: prefix; use \`url\` for a data: URL)`);
    return { data };
  }
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url as string)?.[1]?.toLowerCase();
  if (scheme !== "https" && scheme !== "http" && scheme !== "data") {
    throw new TypeError(`Expected \`url\` of ${where} to be an https:, http: or data: URL, got ${describe(url)}`);
  }
  return { url: url as string };
}

function text(part: Record<string, unknown>, key: string, where: string): string {
  const value = part[key];
  if (typeof value !== "string" || (key !== "text" && value === "")) {
    throw new TypeError(`Expected \`${key}\` of ${where} to be a ${key === "text" ? "" : "non-empty "}string, got ${describe(value)}`);
  }
  return value;
}

function optionalText(part: Record<string, unknown>, key: string, where: string): string | undefined {
  return part[key] === undefined ? undefined : text(part, key, where);
}

/** How many bytes base64 `data` holds, as people read sizes (1 kB = 1,000 B): the one rule every marker uses. */
export function sizeOf(data: string): string {
  const bytes = Math.floor((data.length * 3) / 4) - (data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0);
  return bytes < 1000 ? `${bytes} B` : `${(bytes / 1000).toFixed(1)} kB`;
}

/**
 * The text marker that stands for `part` where a provider cannot take it: what kind of content
 * it was and enough to find it again (its media type and size, its URL, its name, a resource's
 * URI and inline text), never its bytes.
 */
export function partMarker(part: ContentPart): string {
  switch (part.type) {
    case "text":
      return part.text;
    case "image":
    case "audio":
    case "file": {
      const where = part.data === undefined ? sourceText(part.url as string) : sizeOf(part.data);
      const name = part.type === "file" && part.name !== undefined ? `${part.name}, ` : "";
      return `[${part.type}: ${name}${part.mediaType === undefined ? "" : `${part.mediaType}, `}${where}]`;
    }
    default: {
      const head = `[resource: ${part.name === undefined ? "" : `${part.name} `}${part.uri}${part.mimeType === undefined ? "" : `, ${part.mimeType}`}]`;
      return part.text === undefined ? head : `${head}\n${part.text}`;
    }
  }
}

/** A URL as a marker shows it: a data: URL by its size, not its bytes. */
function sourceText(url: string): string {
  if (!url.toLowerCase().startsWith("data:")) return url;
  const comma = url.indexOf(",");
  return comma === -1 ? "a data: URL" : `a data: URL, ${sizeOf(url.slice(comma + 1))}`;
}

/**
 * A message's text followed by the markers of its parts: all a text-only reader can be given.
 * A marker its text already holds (an MCP result's text marks its own images) is not repeated.
 */
export function withMarkers(content: string, parts: readonly ContentPart[] | undefined): string {
  if (parts === undefined || parts.length === 0) return content;
  const markers = parts.map(partMarker).filter((marker) => !content.includes(marker));
  if (markers.length === 0) return content;
  return content === "" ? markers.join("\n") : `${content}\n${markers.join("\n")}`;
}

/** `part`'s bytes as a data: URL, or its URL as given (providers that take URLs only). */
export function urlOf(part: ImagePart | FilePart): string {
  return part.url ?? `data:${part.mediaType as string};base64,${part.data as string}`;
}

/** A `data:<type>;base64,<bytes>` URL's media type and bytes; undefined for any other URL. */
export function dataUrlParts(url: string): { mediaType: string; data: string } | undefined {
  const match = /^data:([^;,]+);base64,/i.exec(url);
  return match === null ? undefined : { mediaType: (match[1] as string).toLowerCase(), data: url.slice(match[0].length) };
}
