// workerd runs this module (bundled by esbuild with the `workerd` condition, as wrangler does):
// each request runs the scenario against the peer named in its query.
import { nodeOnly, scenario } from "./scenario.mjs";

export default {
  async fetch(request) {
    const url = new URL(request.url);
    const digest = await scenario({ providerUrl: url.searchParams.get("provider"), mcpUrl: url.searchParams.get("mcp") });
    return Response.json({ digest, nodeOnly: await nodeOnly() });
  },
};
