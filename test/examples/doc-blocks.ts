/**
 * The ```ts blocks of README.md and of the guides in docs/, each written to its own module with
 * `toolrx` mapped to the source (in a temporary directory inside the project, removed after the
 * importing file's tests), for the doc tests (readme.test.ts, readme-providers.test.ts) to
 * type-check, import and run. Blocks that call a provider's API through its SDK have their
 * top-level bindings exported, so a test can check what they computed as well as what they sent.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { afterAll } from "vitest";

/** The project's root directory. */
export const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** The README and every guide under docs/, each with its text. */
const documents = [
  "README.md",
  ...readdirSync(join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => `docs/${f}`),
].map((path) => ({
  path,
  text: readFileSync(join(root, path), "utf8"),
}));

/** One ```ts block, and the module it was written to. */
export interface Block {
  /** 1-based, counting only ```ts blocks. */
  readonly number: number;
  /** The document the block is in (README.md, docs/agent.md, ...). */
  readonly doc: string;
  /** Line of the block's first line of code in its document. */
  readonly line: number;
  /** Text of the last heading before the block. */
  readonly section: string;
  readonly code: string;
  readonly file: string;
}

/** Packages whose use in a block means talking to a real service. */
export const NETWORK = ["openai", "@anthropic-ai/sdk"];

/** Packages whose use in a block needs a Redis, which the block finds in `REDIS_URL`. */
export const REDIS = ["toolrx/bullmq", "bullmq", "ioredis"];

/** The README sections whose blocks use a NETWORK package: each is run against the fake provider (readme-providers.test.ts). */
export const PROVIDER_SECTIONS = [
  "Models for the agent loop",
  "Converting a conversation",
  "OpenAI Chat Completions",
  "OpenAI Responses",
  "Anthropic Messages",
];

// Inside the project, so that the blocks' own imports (zod, rxjs, vitest) resolve from node_modules.
const tmp = join(root, ".tmp");
/** This file's own directory under `tmp`, which another doc test's cleanup may remove while empty: made again then. */
const dir = ((): string => {
  for (;;) {
    mkdirSync(tmp, { recursive: true });
    try {
      return mkdtempSync(join(tmp, "readme-"));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    }
  }
})();
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  try {
    rmdirSync(tmp); // only if nothing else uses it
  } catch {
    // not empty: leave it
  }
});

/** Every ```ts block of the documents, in order, each written to its module. */
export const blocks: Block[] = [];
for (const { path, text } of documents) {
  for (const match of text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)) {
    const code = match[1] ?? "";
    const number = blocks.length + 1;
    const line = text.slice(0, match.index).split("\n").length + 1;
    const file = join(dir, `block-${String(number).padStart(3, "0")}.ts`);
    const exported = callsProvider(code) ? topLevelBindings(code) : [];
    writeFileSync(file, `${mapImports(code)}\nexport { ${exported.join(", ")} };\n`);
    blocks.push({ number, doc: path, line, section: headingBefore(text, match.index), code, file });
  }
}

function headingBefore(text: string, offset: number): string {
  let heading = "";
  let fenced = false;
  for (const row of text.slice(0, offset).split("\n")) {
    if (row.startsWith("```")) fenced = !fenced;
    else if (!fenced) heading = /^#{1,6}\s+(.*)$/.exec(row)?.[1]?.trim() ?? heading;
  }
  return heading;
}

/** Names the block's top-level `const`/`let` statements declare (plain identifiers only). */
function topLevelBindings(code: string): string[] {
  const source = ts.createSourceFile("block.ts", code, ts.ScriptTarget.Latest);
  return source.statements.flatMap((statement) =>
    ts.isVariableStatement(statement) ? statement.declarationList.declarations.flatMap((d) => (ts.isIdentifier(d.name) ? [d.name.text] : [])) : [],
  );
}

/** `toolrx` and its subpaths (`toolrx/providers`, `toolrx/providers/openai`, `toolrx/testing`, `toolrx/otel`, `toolrx/mcp`, …) resolve to the source, as they would to the built package. */
function mapImports(code: string): string {
  const toSrc = (entry: string) =>
    relative(dir, join(root, "src", entry))
      .split("\\")
      .join("/");
  return code.replace(
    /(["'])toolrx(?:\/([a-z/-]+))?\1/g,
    (_m, quote: string, subpath: string | undefined) => `${quote}${toSrc(subpath ? `${subpath}/index.js` : "index.js")}${quote}`,
  );
}

/** Whether a block talks to a real provider: it uses an SDK and does not bring its own local server (toolrx/testing/server). */

export function callsProvider(code: string): boolean {
  return importsAny(code, NETWORK) && !importsAny(code, ["toolrx/testing/server"]);
}

/** Whether the block imports one of `packages` (or a subpath of one). */
export function importsAny(code: string, packages: readonly string[]): boolean {
  return packages.some((name) => new RegExp(`from\\s+["']${name.replace("/", "\\/")}(/[^"']*)?["']`).test(code));
}
