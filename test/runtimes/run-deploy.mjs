// The deployment examples (examples/deploy, one per docs/deploy.md section), each run on its own
// runtime from the matrix's project, where toolrx is the packed tarball: the Next.js route in
// edge-runtime (Next's edge sandbox), Hono in workerd, the Deno and Bun servers as processes, and
// the browser page in Chromium. Each must stream the same chat: the weather call's output, then
// the model's sentence.
import { spawn } from "node:child_process";
import { cpSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

const ANSWER = "It is 21 °C in Lisbon.";
const chatBody = JSON.stringify({ messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "Weather in Lisbon?" }] }] });

/** What a UI message stream says: the tool outputs and the text, or why it is not one. */
async function readChat(response) {
  if (response.status !== 200) throw new Error(`answered ${response.status}: ${await response.text()}`);
  if (response.headers.get("x-vercel-ai-ui-message-stream") !== "v1") throw new Error("not a UI message stream (header missing)");
  const frames = (await response.text()).split("\n\n").filter((f) => f.startsWith("data: ") && f !== "data: [DONE]");
  const chunks = frames.map((f) => JSON.parse(f.slice(6)));
  const outputs = chunks.filter((c) => c.type === "tool-output-available").map((c) => JSON.stringify(c.output));
  const text = chunks
    .filter((c) => c.type === "text-delta")
    .map((c) => c.delta)
    .join("");
  return `${outputs.join(" ")} ${text}`;
}

const expected = `${JSON.stringify({ city: "Lisbon", tempC: 21 })} ${ANSWER}`;

async function bundleExample(work, file, { conditions, platform = "neutral", format = "esm", globalName } = {}) {
  const result = await build({
    entryPoints: [join(work, "deploy", file)],
    absWorkingDir: work,
    bundle: true,
    write: false,
    format,
    globalName,
    platform,
    conditions,
    mainFields: ["browser", "module", "main"],
    target: "es2022",
    logLevel: "error",
  });
  return result.outputFiles[0].text;
}

/** Starts a server process and resolves with the port it prints (`listening on <port>`). */
function serve(command, args, cwd) {
  const child = spawn(command, args, { cwd, env: { ...process.env, PORT: "0", NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"] });
  const port = new Promise((resolve, reject) => {
    let out = "";
    const onData = (d) => {
      out += d;
      const found = /listening on (\d+)/.exec(out);
      if (found) resolve(Number(found[1]));
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", (d) => (out += d));
    child.on("exit", (code) => reject(new Error(`exited ${code} before listening: ${out.slice(-2000)}`)));
    setTimeout(() => reject(new Error(`not listening after 60 s: ${out.slice(-2000)}`)), 60_000).unref();
  });
  return { child, port };
}

async function overHttp(command, args, work) {
  const { child, port } = serve(command, args, work);
  try {
    return await readChat(await fetch(`http://127.0.0.1:${await port}/api/chat`, { method: "POST", body: chatBody }));
  } finally {
    child.kill("SIGKILL");
  }
}

/** Runs every deployment example; returns `[name, error | undefined]` for each. */
export async function runDeployExamples({ root, work, bin, peer, launchChromium }) {
  cpSync(join(root, "examples", "deploy"), join(work, "deploy"), { recursive: true });
  const examples = {
    "next-route (edge-runtime)": async () => {
      const { EdgeRuntime } = await import("edge-runtime");
      const code = await bundleExample(work, "next-route.ts", { conditions: ["edge-light", "worker", "browser"], format: "iife", globalName: "route" });
      const runtime = new EdgeRuntime({ initialCode: `${code}\naddEventListener("fetch", (event) => event.respondWith(route.POST(event.request)));` });
      return readChat(await runtime.dispatchFetch("http://localhost/api/chat", { method: "POST", body: chatBody }));
    },
    "hono-worker (workerd)": async () => {
      const { Miniflare } = await import("miniflare");
      const script = await bundleExample(work, "hono-worker.ts", { conditions: ["workerd", "worker", "browser"] });
      const mf = new Miniflare({ modules: true, script, compatibilityDate: "2026-05-01" });
      try {
        return await readChat(await mf.dispatchFetch("http://localhost/api/chat", { method: "POST", body: chatBody }));
      } finally {
        await mf.dispose();
      }
    },
    deno: () => overHttp(bin("deno"), ["run", "--allow-net", "--allow-env", "--allow-read", "deploy/deno.ts"], work),
    bun: () => overHttp(bin("bun"), ["run", "deploy/bun.ts"], work),
    "browser (Chromium)": async () => {
      const bundled = join(work, "deploy-browser.js");
      const code = await bundleExample(work, "browser.ts", { platform: "browser", conditions: ["browser"] });
      writeFileSync(bundled, code);
      peer.servePage(bundled);
      const browser = await launchChromium();
      try {
        const page = await browser.newPage();
        await page.goto(peer.origin);
        await page.waitForSelector("#answer[data-done]", { timeout: 60_000 });
        const text = await page.textContent("#answer");
        return text.includes(ANSWER) && text.includes("[tool-weather output-available]") ? expected : `page shows: ${text}`;
      } finally {
        await browser.close();
      }
    },
  };
  const outcomes = [];
  for (const [name, run] of Object.entries(examples)) {
    const started = performance.now();
    try {
      const got = await run();
      outcomes.push([
        name,
        got === expected ? undefined : `streamed ${JSON.stringify(got)}, expected ${JSON.stringify(expected)}`,
        performance.now() - started,
      ]);
    } catch (error) {
      outcomes.push([name, error.message, performance.now() - started]);
    }
  }
  return outcomes;
}
