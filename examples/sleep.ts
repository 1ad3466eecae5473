/**
 * The examples' slow work: a handler that waits honours its call's `signal` as a real one would.
 * It is the library's own abortable sleep (isomorphic; rejects with the signal's reason); on Node,
 * `setTimeout` of `node:timers/promises` with `{ signal }` does much the same in your own handlers
 * (it rejects with an `AbortError` that carries the reason as its `cause`).
 */
export { sleep } from "../src/util/sleep.js";
