import { runtimeName } from "./runtime-name.js";

/**
 * What importing a Node-only subpath (`toolrx/node`, `toolrx/bullmq`, `toolrx/code-mode`) throws
 * where a bundler resolved it for a browser or an edge runtime (the `browser`, `worker`, `workerd`
 * and `edge-light` export conditions): the subpath, what it needs from Node.js, and the runtime it
 * was loaded on. Without it, the same bundle fails to build, or fails at start-up on an
 * unresolvable `node:worker_threads`, with nothing to say which import was at fault.
 */
export class NodeOnlyError extends Error {
  override readonly name = "NodeOnlyError";
  /** The subpath imported, e.g. `"toolrx/node"`. */
  readonly subpath: string;
  /** The runtime it was loaded on, as {@link runtimeName} names it. */
  readonly runtime: string;

  constructor(subpath: string, needs: string) {
    const runtime = runtimeName();
    super(
      `${subpath} runs only on Node.js (it needs ${needs}), and this is ${runtime}. ` +
        `Import it only on a Node.js server; the rest of toolrx (the core, toolrx/providers, toolrx/ai-sdk, toolrx/ag-ui, toolrx/mcp, toolrx/testing) runs here.`,
    );
    this.subpath = subpath;
    this.runtime = runtime;
  }
}
