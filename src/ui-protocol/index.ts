/**
 * What the two UI protocols (toolrx/ag-ui, toolrx/ai-sdk) share: the writer that decides when a
 * run's calls, answers and turns reach the client, each protocol saying how they look on its
 * wire. Internal, not a package export: both subpaths import it here, through this file alone,
 * and the bundler gives it a chunk of its own that neither pulls the core's chunk into, so each
 * subpath's size stays its own (scripts/size-budgets.json). It may import the core only as the
 * subpaths do: types from src/index.ts, and util/.
 */
export { ProtocolWriter, type SubagentValue, type WholeCall } from "./protocol-writer.js";
export { argumentsOf } from "./arguments-of.js";
export type { HaltMetadata } from "./halt-metadata.js";
