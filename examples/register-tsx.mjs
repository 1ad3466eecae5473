// A worker pool's preload that lets its threads import TypeScript in development: tsx, registered
// in each thread (Node 20 does not pass the main thread's loader on to worker threads).
// See docs/isolation.md, "TypeScript handlers".
import { register } from "tsx/esm/api";

register();
