// Tasks: a long tool call run as an MCP task, in both revisions (2025-11-25's `tasks/*` requests,
// and the 2026-07-28 tasks extension), on both sides: following and reading a task as a client, and
// storing, recording and answering tasks as a server. Imports wire and results.
export { extTaskMeta, type McpExtTaskState, optsIntoTasks, readExtTask, TASKS_EXTENSION } from "./ext-task.js";
export { type ExtTaskEnd, extTaskOutcome, followExtTask } from "./ext-task-follow.js";
export { type ServeTaskOptions, servedAsTask, serveTaskRequests, startTask, taskServing } from "./serve-tasks.js";
export { followTask } from "./task-follow.js";
export type { McpTaskRecords, TaskRun } from "./task-records.js";
export { isTerminal, type McpTaskReport, type McpTaskState, type McpTaskStatus, readTask } from "./task-state.js";
export { McpTaskStore } from "./task-store.js";
