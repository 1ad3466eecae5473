// The tools the official conformance suite's server scenarios call, as toolrx tools: what a
// served toolrx tool can express (text, parts, errors, progress, logs) mapped to MCP by serveTools.
import { defineTool, error, ok, type Tool } from "../../../src/index.js";
import { CONFORMANCE_TOOLS } from "../support/conformance-tools.js";

const NONE = { type: "object", properties: {} } as const;
// A 1×1 PNG and the 44-byte header of an empty WAV file.
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const WAV = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The suite's `test_*` tools (those that ask the user or the client's model are in ../support/conformance-tools.ts). */
export const conformanceTools: readonly Tool[] = [
  defineTool({ name: "test_simple_text", description: "Simple text", schema: NONE, handler: () => ok("This is a simple text response for testing.") }),
  defineTool({
    name: "test_image_content",
    description: "An image",
    schema: NONE,
    handler: () => ok("", { parts: [{ type: "image", mediaType: "image/png", data: PNG }] }),
  }),
  defineTool({
    name: "test_audio_content",
    description: "An audio clip",
    schema: NONE,
    handler: () => ok("", { parts: [{ type: "audio", mediaType: "audio/wav", data: WAV }] }),
  }),
  defineTool({
    name: "test_embedded_resource",
    description: "An embedded resource",
    schema: NONE,
    handler: () =>
      ok("", { parts: [{ type: "resource", uri: "test://embedded-resource", mimeType: "text/plain", text: "This is an embedded resource content." }] }),
  }),
  defineTool({
    name: "test_multiple_content_types",
    description: "Text, an image and a resource",
    schema: NONE,
    handler: () =>
      ok("Multiple content types test:", {
        parts: [
          { type: "image", mediaType: "image/png", data: PNG },
          { type: "resource", uri: "test://mixed-content-resource", mimeType: "application/json", text: '{"test":"data","value":123}' },
        ],
      }),
  }),
  defineTool({
    name: "test_tool_with_logging",
    description: "Logs three lines",
    schema: NONE,
    handler: async (_args, ctx) => {
      ctx.log({ level: "info", data: "Tool execution started" });
      await sleep(50);
      ctx.log({ level: "info", data: "Tool processing data" });
      await sleep(50);
      ctx.log({ level: "info", data: "Tool execution completed" });
      return ok("Logging test completed");
    },
  }),
  defineTool({
    name: "test_tool_with_progress",
    description: "Reports progress",
    schema: NONE,
    handler: async (_args, ctx) => {
      for (const progress of [0, 50, 100]) {
        ctx.progress({ progress, total: 100 });
        if (progress < 100) await sleep(50);
      }
      return ok("Progress test completed");
    },
  }),
  defineTool({
    name: "test_error_handling",
    description: "Always fails",
    schema: NONE,
    handler: () => error("This tool intentionally returns an error for testing"),
  }),
  defineTool({
    name: "test_reconnection",
    description: "Answers after a while (the suite closes the stream meanwhile)",
    schema: NONE,
    handler: async () => {
      await sleep(200);
      return ok("Reconnection test completed successfully");
    },
  }),
  defineTool({
    name: "json_schema_2020_12_tool",
    description: "Tool with JSON Schema 2020-12 features",
    schema: {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      $defs: { address: { type: "object", properties: { street: { type: "string" }, city: { type: "string" } } } },
      properties: { name: { type: "string" }, address: { $ref: "#/$defs/address" } },
      additionalProperties: false,
    },
    handler: (args) => ok(args),
  }),
  ...CONFORMANCE_TOOLS,
];
