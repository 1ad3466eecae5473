// The public file of loop/ (one run of the loop): the only one its sibling concepts and src/index.ts import (see ../README.md).
export { AgentRun } from "./agent-run.js";
