/**
 * Every ```ts block of README.md compiles, and runs. Each block is written to its own module
 * with `toolrx` mapped to the source, type-checked with the project's compiler options, then
 * imported: blocks that declare tests (they import vitest) register them in this file, the
 * others run with their console output silenced. Blocks that call a provider's API over the
 * network are only type-checked.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { afterAll, describe, expect, it, vi } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const readme = readFileSync(join(root, "README.md"), "utf8");

interface Block {
  /** 1-based, counting only ```ts blocks. */
  readonly number: number;
  /** README line of the block's first line of code. */
  readonly line: number;
  readonly code: string;
  readonly file: string;
}

/** Packages whose use in a block means talking to a real service. */
const NETWORK = ["openai", "@anthropic-ai/sdk"];

// Inside the project, so that the blocks' own imports (zod, rxjs, vitest) resolve from node_modules.
const tmp = join(root, ".tmp");
mkdirSync(tmp, { recursive: true });
const dir = mkdtempSync(join(tmp, "readme-"));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  try {
    rmdirSync(tmp); // only if nothing else uses it
  } catch {
    // not empty: leave it
  }
});

const blocks: Block[] = [];
for (const match of readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)) {
  const code = match[1] ?? "";
  const number = blocks.length + 1;
  const line = readme.slice(0, match.index).split("\n").length + 1;
  const file = join(dir, `block-${String(number).padStart(2, "0")}.ts`);
  writeFileSync(file, `${mapImports(code)}\nexport {};\n`);
  blocks.push({ number, line, code, file });
}

/** `toolrx` and `toolrx/providers` resolve to the source, as they would to the built package. */
function mapImports(code: string): string {
  const toSrc = (entry: string) => relative(dir, join(root, "src", entry)).split("\\").join("/");
  return code.replace(/(["'])toolrx(\/providers)?\1/g, (_m, quote: string, providers: string | undefined) =>
    `${quote}${toSrc(providers ? "providers/index.js" : "index.js")}${quote}`,
  );
}

function importsAny(code: string, packages: readonly string[]): boolean {
  return packages.some((name) => new RegExp(`from\\s+["']${name.replace("/", "\\/")}(/[^"']*)?["']`).test(code));
}

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
        const where = at ? `README.md:${block.line + at.line}:${at.character + 1}` : "README.md";
        problems.push(`block #${block.number} (${where}): TS${d.code} ${text}`);
      }
    }
    expect(problems, problems.join("\n")).toEqual([]);
  }, 60_000);
});

// Blocks that declare tests must be imported while this file's tests are collected.
for (const block of blocks) {
  if (importsAny(block.code, ["vitest"])) {
    describe(`README block #${block.number} (README.md:${block.line})`, async () => {
      await import(block.file);
    });
  }
}

describe("README.md blocks run", () => {
  for (const block of blocks) {
    if (importsAny(block.code, ["vitest"])) continue;
    const name = `block #${block.number} (README.md:${block.line})`;
    if (importsAny(block.code, NETWORK)) {
      it.skip(`${name} calls a provider over the network`, () => {});
      continue;
    }
    it(`${name} runs without throwing`, async () => {
      const log = vi.spyOn(console, "log").mockImplementation(() => {});
      try {
        await import(block.file);
      } finally {
        log.mockRestore();
      }
    });
  }
});
