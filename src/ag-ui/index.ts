/**
 * toolrx/ag-ui: toolrx behind an AG-UI client (CopilotKit and the rest). `toAgUiEvents` streams
 * a run as `@ag-ui/core` 1.0 events, and `fromRunAgentInput` reads the `RunAgentInput` a client
 * sends, interrupts' answers included. `@ag-ui/core` is an optional peer, for types alone.
 */
export { toAgUiEvents, type AgUiEventsOptions } from "./ag-ui-events.js";
export { fromRunAgentInput } from "./from-run-agent-input.js";
