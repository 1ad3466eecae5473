import type { UIMessageChunk } from "ai";
import { type Tool, type ToolApp, toolAppOf } from "../index.js";

/** The MIME type of an MCP Apps view, which the AI SDK's `MCPAppRenderer` requires on `toolMetadata.app`. */
const APP_MIME_TYPE = "text/html;profile=mcp-app";

/**
 * `emit`, with the MCP Apps view of each call's tool (its `metadata.app`) put on the call's tool
 * chunks as `toolMetadata.app` (`{ resourceUri, mimeType, visibility? }`): what the AI SDK's
 * `MCPAppRenderer` reads from a tool part to render the view. Calls of tools without one, and
 * every other chunk, pass unchanged. A wrapper around the chunk writer, so the writer knows
 * nothing of apps.
 */
export function withToolApps(emit: (chunk: UIMessageChunk) => void, tools: readonly Tool[]): (chunk: UIMessageChunk) => void {
  const apps = new Map<string, ToolApp>();
  for (const tool of tools) {
    const app = toolAppOf(tool);
    if (app !== undefined) apps.set(tool.name, app);
  }
  if (apps.size === 0) return emit;
  const byCall = new Map<string, ReturnType<typeof metadataOf>>();
  return (chunk) => {
    switch (chunk.type) {
      case "tool-input-start":
      case "tool-input-available": {
        const app = apps.get(chunk.toolName);
        if (app === undefined) break;
        const toolMetadata = metadataOf(app);
        byCall.set(chunk.toolCallId, toolMetadata);
        emit({ ...chunk, toolMetadata: { ...chunk.toolMetadata, ...toolMetadata } });
        return;
      }
      case "tool-output-available":
      case "tool-output-error": {
        const toolMetadata = byCall.get(chunk.toolCallId);
        if (toolMetadata === undefined) break;
        emit({ ...chunk, toolMetadata: { ...chunk.toolMetadata, ...toolMetadata } });
        return;
      }
    }
    emit(chunk);
  };
}

function metadataOf(app: ToolApp) {
  const described: { resourceUri: string; mimeType: string; visibility?: ("model" | "app")[] } = { resourceUri: app.resourceUri, mimeType: APP_MIME_TYPE };
  if (app.visibility !== undefined) described.visibility = [...app.visibility];
  return { app: described };
}
