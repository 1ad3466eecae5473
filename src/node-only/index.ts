/**
 * The stand-in of each Node-only subpath in a browser or edge bundle: package.json's `exports`
 * send the `browser`, `worker`, `workerd` and `edge-light` conditions of `toolrx/node`,
 * `toolrx/bullmq` and `toolrx/code-mode` to a module built from this one, which exports the same
 * names and throws a {@link NodeOnlyError} when it is evaluated (scripts/node-only-stubs.mjs
 * writes them at build time from the real entries, so the names never drift).
 */
export { NodeOnlyError } from "./node-only-error.js";
export { runtimeName } from "./runtime-name.js";
