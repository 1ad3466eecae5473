// mcpTools as the client under test of the official conformance suite: `tsx client.ts <url>`,
// the scenario in MCP_CONFORMANCE_SCENARIO, the SDK line in TOOLRX_SDK_LINE (v1 or v2). It lists
// the server's tools through toolrx and calls each through runToolCalls, answering a server's
// elicitation through toolrx's ask_user (accepted with no fields, so the client's defaults apply).
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { runToolCalls, type Tool, type ToolCall } from "../../../src/index.js";
import { type McpInputRequest, mcpRetryCall, mcpTools } from "../../../src/mcp/index.js";

/** The arguments the suite's tools expect; any other tool is called with none. */
const ARGUMENTS: Record<string, Record<string, unknown>> = { add_numbers: { a: 5, b: 3 } };

async function main(url: string, line: string): Promise<void> {
  const info = { name: "toolrx-conformance-client", version: "1.0.0" };
  // Form elicitation, the SDK filling in a schema's defaults for fields the user left out.
  const options = { capabilities: { elicitation: { form: { applyDefaults: true } } } };
  const client = line === "v2" ? new ClientV2(info, options) : new ClientV1(info, options);
  const transport = line === "v2" ? new HttpV2(new URL(url)) : new HttpV1(new URL(url));
  await client.connect(transport as never);
  const tools: Tool[] = await mcpTools(client, { elicitation: { holdFor: 10_000 } });
  for (const tool of tools) {
    let call: ToolCall = { id: `call-${tool.name}`, name: tool.name, arguments: ARGUMENTS[tool.name] ?? {} };
    for (let round = 0; round < 5; round++) {
      const { messages, halt } = await runToolCalls([call], tools, { toolTimeout: 20_000 });
      const input = halt?.haltedReason === "ask_user" ? (halt.askUserOpts as { mcp?: McpInputRequest } | undefined)?.mcp : undefined;
      if (input === undefined) {
        console.log(`${tool.name}: ${messages[0]?.content ?? "(no answer)"}`);
        break;
      }
      call = mcpRetryCall(input, { elicitation: { action: "accept", content: {} } }, call.id);
    }
  }
  await client.close();
}

const url = process.argv.at(-1);
if (url === undefined || !/^https?:/.test(url)) {
  console.error("usage: client.ts <server url>");
  process.exit(2);
}
main(url, process.env.TOOLRX_SDK_LINE ?? "v1").then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
