// The public file of options/ (the agent's options, checked): the only one its sibling concepts and src/index.ts import (see ../README.md).
export { checkAgentOptions, type AgentEnv } from "./agent-env.js";
export type { AgentOptions, TurnResult } from "./agent-options.js";
