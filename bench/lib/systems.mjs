/**
 * The systems in the order the table shows them. Peers are loaded lazily and by name, so one
 * that fails to load is reported as a row with the reason instead of stopping the run.
 */
export const SYSTEM_NAMES = [
  "floor",
  "floor-timeout",
  "contract-stream",
  "contract-batch",
  "limit-stream",
  "limit-batch",
  "toolrx-stream",
  "toolrx-batch",
  "p-limit",
  "ai-sdk",
  "langgraph",
  "openai-agents",
];

const loaders = {
  floor: async () => (await import("../systems/floor.mjs")).system,
  "floor-timeout": async () => (await import("../systems/floor.mjs")).withTimeout,
  "contract-stream": async () => (await import("../systems/contract.mjs")).stream,
  "contract-batch": async () => (await import("../systems/contract.mjs")).batch,
  "limit-stream": async () => (await import("../systems/limit.mjs")).stream,
  "limit-batch": async () => (await import("../systems/limit.mjs")).batch,
  "toolrx-stream": async () => (await import("../systems/toolrx.mjs")).stream,
  "toolrx-batch": async () => (await import("../systems/toolrx.mjs")).batch,
  "p-limit": async () => (await import("../systems/p-limit.mjs")).system,
  "ai-sdk": async () => (await import("../systems/ai-sdk.mjs")).system,
  langgraph: async () => (await import("../systems/langgraph.mjs")).system,
  "openai-agents": async () => (await import("../systems/openai-agents.mjs")).system,
};

/** @returns {Promise<import("./system.mjs").System>} */
export function loadSystem(name) {
  const load = loaders[name];
  if (load === undefined) throw new Error(`unknown system ${name}; known: ${SYSTEM_NAMES.join(", ")}`);
  return load();
}
