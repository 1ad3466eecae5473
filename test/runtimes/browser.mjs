// Chromium runs this module (bundled by esbuild for the browser) in a page served by the peer:
// the scenario runs against the page's own origin, and its outcome is left on `window`.
import { nodeOnly, scenario } from "./scenario.mjs";

const origin = location.origin;
window.matrixResult = scenario({ providerUrl: origin, mcpUrl: `${origin}/mcp` }).then(async (digest) => ({ digest, nodeOnly: await nodeOnly() }));
