// The server-side subpaths on the runtimes that have Node's built-ins (Node, Bun, Deno): a tool on
// toolrx/node's worker thread and a toolrx/code-mode script that calls a tool. Part of the digest
// those three must agree on; workerd and Chromium get NodeOnlyError instead (scenario.mjs's nodeOnly).
import { defineTool, ok, runToolCalls } from "toolrx";
import { codeMode } from "toolrx/code-mode";
import { workerPool } from "toolrx/node";
import { z } from "zod";

export async function serverSide() {
  const pool = workerPool({ size: 1 });
  const fib = pool.tool({
    name: "fib",
    description: "Fibonacci",
    schema: z.object({ n: z.number().int() }),
    module: new URL("./handlers.mjs", import.meta.url).href,
    export: "fib",
  });
  const price = defineTool({ name: "price", description: "Price of a SKU", schema: z.object({ sku: z.string() }), handler: ({ sku }) => ok(sku.length * 10) });
  const code = codeMode({ tools: [price] });
  try {
    const isolated = await runToolCalls([{ id: "i1", name: "fib", arguments: { n: 20 } }], [fib], { toolExecutor: pool, toolTimeout: 30_000 });
    const script = 'const [a, b] = await Promise.all([tools.price({ sku: "ab" }), tools.price({ sku: "abc" })]); return { total: a + b };';
    const scripted = await runToolCalls([{ id: "s1", name: "run_script", arguments: { script } }], [code.tool], { toolTimeout: 30_000 });
    return { isolated: isolated.messages[0]?.content, codeMode: scripted.messages[0]?.content };
  } finally {
    await Promise.all([pool.close(), code.close()]);
  }
}
