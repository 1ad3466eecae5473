// The public file of events/ (what a run tells, and how it ends): the only one its sibling concepts and src/index.ts import (see ../README.md).
export type { AgentEnding, AgentHaltedEvent, AgentResult, PendingWork } from "./agent-ending.js";
export type { AgentEvent, ModelReplyEvent, ReasoningEvent, SubagentEvent, ToolInputEvent } from "./agent-event.js";
