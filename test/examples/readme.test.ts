/**
 * Every ```ts block of README.md and of the guides in docs/ compiles, and runs (doc-blocks.ts
 * writes each to its own module with `toolrx` mapped to the source): type-checked with the
 * project's compiler options, then imported: blocks that declare tests (they import vitest)
 * register them in this file, the others run with their console output silenced. Blocks that
 * call a provider's API through its SDK run against a local fake provider in
 * readme-providers.test.ts. Blocks that use `toolrx/bullmq` read `REDIS_URL`: they run against a
 * Redis of their own, started as test/bullmq starts one (or the `REDIS_URL` given), and skip with
 * one line saying why when there is neither a `redis-server` nor a `REDIS_URL` (never under CI=true).
 */
import { join } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { setEnv } from "../support/fake-providers.js";
import { redisUnavailable, startRedis, type TestRedis } from "../bullmq/redis.js";
import { type Block, blocks, callsProvider, importsAny, REDIS, root } from "./doc-blocks.js";

describe("README.md", () => {
  it("has ts code blocks", () => {
    expect(blocks.length).toBeGreaterThan(10);
  });

  it("every ts block type-checks with the project's compiler options", () => {
    const configPath = join(root, "tsconfig.json");
    const config = ts.readConfigFile(configPath, (path) => ts.sys.readFile(path));
    const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root, { noEmit: true }, configPath);
    const program = ts.createProgram(
      blocks.map((b) => b.file),
      options,
    );
    const problems: string[] = [];
    for (const block of blocks) {
      const source = program.getSourceFile(block.file);
      const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
      for (const d of diagnostics) {
        const text = ts.flattenDiagnosticMessageText(d.messageText, "\n");
        const at = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
        const where = at ? `${block.doc}:${block.line + at.line}:${at.character + 1}` : block.doc;
        problems.push(`block #${block.number} (${where}): TS${d.code} ${text}`);
      }
    }
    expect(problems, problems.join("\n")).toEqual([]);
  }, 240_000); // every block of every guide in one program: about 30 s alone on 2 cores, far more beside other work
});

// Blocks that declare tests must be imported while this file's tests are collected.
for (const block of blocks) {
  if (importsAny(block.code, ["vitest"])) {
    describe(`README block #${block.number} (${block.doc}:${block.line})`, async () => {
      await import(block.file);
    });
  }
}

describe("README.md blocks run", () => {
  const runnable = blocks.filter((b) => !importsAny(b.code, ["vitest"]) && !callsProvider(b.code)); // NETWORK: run against the fake provider in readme-providers.test.ts
  for (const block of runnable.filter((b) => !importsAny(b.code, REDIS))) runsAsShown(block);

  const needRedis = runnable.filter((b) => importsAny(b.code, REDIS));
  if (needRedis.length === 0) return;
  describe.skipIf(redisUnavailable !== undefined)("with a Redis in REDIS_URL", () => {
    let redis: TestRedis | undefined;
    let restoreEnv: (() => void) | undefined;
    beforeAll(async () => {
      redis = await startRedis();
      restoreEnv = setEnv({ REDIS_URL: redis.url });
    }, 30_000);
    afterAll(async () => {
      restoreEnv?.();
      await redis?.stop();
    });
    for (const block of needRedis) runsAsShown(block);
  });
});

/** A test that imports the block and compares what it logs with its `//=>` comments. */
function runsAsShown(block: Block): void {
  const name = `block #${block.number} (${block.doc}:${block.line})`;
  const shown = shownOutputs(block.code);
  const title = shown.length === 0 ? `${name} runs without throwing` : `${name} runs and prints what the README shows`;
  it(
    title,
    async () => {
      const printed: string[] = [];
      const log = vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => {
        printed.push(args.map((a) => show(a, true)).join(" "));
      });
      try {
        await import(block.file);
        await new Promise((resolve) => setTimeout(resolve, 20)); // logs from callbacks still in flight
      } finally {
        log.mockRestore();
      }
      if (shown.length === 0) return;
      expect(printed, `printed:\n${printed.join("\n")}`).toHaveLength(shown.length);
      shown.forEach((expected, i) => {
        expect(squeeze(printed[i] ?? ""), `output ${i + 1} of ${name}`).toMatch(pattern(expected));
      });
      // PGlite compiles Postgres to WebAssembly and runs initdb first: seconds, more on a busy machine.
    },
    block.code.includes("@electric-sql/pglite") ? 120_000 : undefined,
  );
}

/**
 * What a block says it prints: one entry per `//=>` comment, with the comment lines right
 * after it (a multi-line value) joined on.
 */
function shownOutputs(code: string): string[] {
  const outputs: string[] = [];
  let current: string[] | undefined;
  for (const raw of code.split("\n")) {
    const line = raw.trim();
    if (line.startsWith("//=>")) {
      current = [line.slice(4)];
      outputs.push("");
    } else if (current !== undefined && line.startsWith("//")) {
      current.push(line.slice(2));
    } else {
      current = undefined;
    }
    if (current !== undefined) outputs[outputs.length - 1] = current.join("\n");
  }
  return outputs;
}

/** A value as the README writes it: JS literal style, strings in double quotes unless they hold one. */
function show(value: unknown, top = false): string {
  if (typeof value === "string") {
    if (top) return value;
    return value.includes('"') ? `'${value.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'` : JSON.stringify(value);
  }
  if (value === undefined || value === null || typeof value !== "object") return String(value);
  if (Array.isArray(value)) return `[${value.map((v) => show(v)).join(", ")}]`;
  if (value instanceof Error) return String(value);
  const entries = Object.entries(value).map(([k, v]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}: ${show(v)}`);
  return `{ ${entries.join(", ")} }`;
}

/** Whitespace is layout, not output: compare without it. */
function squeeze(text: string): string {
  return text.replace(/\s+/g, "");
}

/** The README's `...` stands for anything; a duration in ms may differ run to run. */
function pattern(expected: string): RegExp {
  const body = squeeze(expected)
    .replace(/,(?=[\]}])/g, "") // a trailing comma is layout too
    .split("...")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*?")
    .replace(/\d+ms/g, "\\d+ms");
  return new RegExp(`^${body}$`, "s");
}
