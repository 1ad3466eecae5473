import { isPlainRecord } from "../util/safe.js";

/**
 * A tool's interactive view, as MCP Apps (`@modelcontextprotocol/ext-apps`) declare one: a
 * `ui://` resource (HTML of MIME type `text/html;profile=mcp-app`) that a host renders with the
 * call's input and result. Set on a tool as `metadata.app`: `serveTools` lists it as the tool's
 * `_meta.ui`, `mcpTools` reads it from a server's tool, and `toUIMessageChunks` hands it to the
 * page as the tool part's `toolMetadata.app`, which the AI SDK's `MCPAppRenderer` renders.
 */
export interface ToolApp {
  /** The view's resource, a `ui://` URI the tool's server answers `resources/read` for. */
  readonly resourceUri: string;
  /** Who may call the tool: the model, the view (`"app"`), or both (MCP Apps' default). */
  readonly visibility?: readonly ("model" | "app")[];
}

/**
 * A tool's {@link ToolApp} from its `metadata.app`, or `undefined` when it has none or one that
 * is not a `ui://` resource (what a host would refuse to render is not passed on).
 *
 * @example
 * toolAppOf({ metadata: { app: { resourceUri: "ui://weather/view.html" } } }); // { resourceUri: "ui://weather/view.html" }
 */
export function toolAppOf(tool: { readonly metadata?: Readonly<Record<string, unknown>> }): ToolApp | undefined {
  return readToolApp(tool.metadata?.app);
}

/** `value` as a {@link ToolApp}, or `undefined` when it is not one. */
export function readToolApp(value: unknown): ToolApp | undefined {
  if (!isPlainRecord(value)) return undefined;
  const { resourceUri, visibility } = value;
  if (typeof resourceUri !== "string" || !resourceUri.startsWith("ui://")) return undefined;
  if (visibility === undefined) return { resourceUri };
  if (!Array.isArray(visibility) || visibility.some((v) => v !== "model" && v !== "app")) return undefined;
  return { resourceUri, visibility: [...(visibility as ("model" | "app")[])] };
}
