// The public file of subagents/ (what the loop and agentTool share about subagents): the only one its sibling concepts and src/index.ts import (see ../README.md).
export { continuationOf, SUBAGENT_RESUME, type SubagentState } from "./subagent-resume.js";
export { runSubagentWith, subagentRunnerOf, type SubagentRunner } from "./subagent-runner.js";
