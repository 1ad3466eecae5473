// One heap of deadlines per pool on the RxJS scheduler, as calls and the pool use it (see README.md).
export { Deadlines, dueAt } from "./deadlines.js";
export type { Timed } from "./deadlines.js";
