// Node, Bun and Deno run this file in the matrix's project: the scenario's digest and the
// Node-only subpaths' outcome, as one JSON line.
import { nodeOnly, scenario } from "./scenario.mjs";

const [providerUrl, mcpUrl] = globalThis.Deno?.args ?? process.argv.slice(2);
const digest = await scenario({ providerUrl, mcpUrl });
console.log(JSON.stringify({ digest, nodeOnly: await nodeOnly() }));
