/**
 * An MCP server over stdio whose tools are toolrx tools: `serveTools` answers `tools/list` with
 * their JSON Schemas and runs each `tools/call` under toolrx's deadline, validation and policy.
 * examples/mcp.ts starts it as a child process; any MCP client can.
 *
 * Run: npx tsx examples/mcp-server.ts (then speak MCP on its stdin/stdout)
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";
import { defineTool, error, ok } from "../src/index.js";
import { serveTools } from "../src/mcp/index.js";
import { sleep } from "./sleep.js";

const forecasts: Record<string, { tempC: number; sky: string }> = {
  oslo: { tempC: 4, sky: "rain" },
  rome: { tempC: 19, sky: "sun" },
  tokyo: { tempC: 12, sky: "clouds" },
};

const forecast = defineTool({
  name: "forecast",
  description: "Tomorrow's weather for a city",
  schema: z.object({ city: z.string().min(1) }),
  handler: async ({ city }, ctx) => {
    await sleep(150, ctx.signal); // a slow upstream service
    const found = forecasts[city.toLowerCase()];
    return found ? ok({ city, ...found }) : error(`no forecast for ${city}; try Oslo, Rome or Tokyo`);
  },
});

const packingList = defineTool({
  name: "packing_list",
  description: "What to pack for a given sky and temperature",
  schema: z.object({ sky: z.enum(["rain", "sun", "clouds"]), tempC: z.number() }),
  handler: ({ sky, tempC }) => ok([tempC < 10 ? "warm coat" : "light jacket", sky === "rain" ? "umbrella" : sky === "sun" ? "sunglasses" : "scarf"]),
});

const server = new Server({ name: "toolrx-weather", version: "1.0.0" });
serveTools(server, [forecast, packingList], { toolTimeout: 5_000, maxConcurrency: 4 });
await server.connect(new StdioServerTransport());
