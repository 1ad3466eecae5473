/**
 * Not part of the public API: the few core internals the subpaths (`toolrx/mcp`, `toolrx/otel`)
 * build on beyond what `src/index.ts` exports. They are listed here, in one place, so the
 * contract between the core and its subpaths is visible and a change to it is a change to this
 * file. Subpaths import the core only through `src/index.ts`, this file and `src/util/`
 * (dependency-cruiser checks it).
 */
export { compileSchema, type CompiledSchema } from "./schema/tool-schema.js";
export { REMOTE_ATTEMPT, resolveOptions } from "./run/options/options.js";
export { watchAbort, type CtxAbort } from "./run/call/call-context.js";
export { pauseDeadline } from "./run/call/deadline-pause.js";
export { checked } from "./tool/executor.js";
export { exitResult } from "./run/outcome/run-errors.js";
export { collectToolCalls } from "./run/batch.js";
export { preparedCall, type RunOfPrepared } from "./run/prepared-call.js";
export type { CallEvents } from "./run/single-call.js";
export { dataUrlParts, sizeOf, urlOf, withMarkers } from "./tool/content-part.js";
export { runSubagentWith, type SubagentRunner, SUBAGENT_RESUME } from "./agent/subagents/index.js";
export { argumentsInputOf, nestedReporterOf } from "./run/call/call-context.js";
export { askUserInCall, sampleInCall } from "./run/call/client-requests.js";
export { CLIENT_CHANNEL } from "./run/options/options.js";
export { resendsInFlight } from "./agent/journal/index.js";
export { deniedText } from "./tool/approval/approval-rule.js";
