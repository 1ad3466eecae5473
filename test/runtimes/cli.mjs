// Node, Bun and Deno run this file in the matrix's project: the scenario's digest (with the
// server-side subpaths, which these three can run) and the Node-only subpaths' outcome, as one
// JSON line.
import { nodeOnly, scenario } from "./scenario.mjs";
import { serverSide } from "./server-side.mjs";

const [providerUrl, mcpUrl] = globalThis.Deno?.args ?? process.argv.slice(2);
const digest = await scenario({ providerUrl, mcpUrl });
digest.serverSide = await serverSide().catch((error) => ({ threw: `${error?.name}: ${error?.message}` }));
console.log(JSON.stringify({ digest, nodeOnly: await nodeOnly() }));
