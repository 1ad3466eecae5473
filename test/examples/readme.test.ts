/**
 * Every ```ts block of README.md and of the guides in docs/ compiles, and runs. Each block is written to its own module
 * with `toolrx` mapped to the source, type-checked with the project's compiler options, then
 * imported: blocks that declare tests (they import vitest) register them in this file, the
 * others run with their console output silenced. Blocks that call a provider's API through its
 * SDK (`openai`, `@anthropic-ai/sdk`) run unchanged against a local fake provider
 * (fake-providers.ts) that the SDKs are pointed at through their environment variables; their
 * top-level bindings are exported so the tests can check what they computed as well as what
 * they sent. Blocks that use `toolrx/bullmq` read `REDIS_URL`: they run against a Redis of
 * their own, started as test/bullmq starts one (or the `REDIS_URL` given), and skip with one
 * line saying why when there is neither a `redis-server` nor a `REDIS_URL` (never under CI=true).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { FAKE_IDS, setEnv, startFakeProviders, type FakeProviders } from "../support/fake-providers.js";
import { redisUnavailable, startRedis, type TestRedis } from "../bullmq/redis.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
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

interface Block {
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
const NETWORK = ["openai", "@anthropic-ai/sdk"];

/** Packages whose use in a block needs a Redis, which the block finds in `REDIS_URL`. */
const REDIS = ["toolrx/bullmq", "bullmq", "ioredis"];

/** The README sections whose blocks use a NETWORK package: each is run against the fake provider below. */
const PROVIDER_SECTIONS = ["Models for the agent loop", "Converting a conversation", "OpenAI Chat Completions", "OpenAI Responses", "Anthropic Messages"];

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
function callsProvider(code: string): boolean {
  return importsAny(code, NETWORK) && !importsAny(code, ["toolrx/testing/server"]);
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
  const runnable = blocks.filter((b) => !importsAny(b.code, ["vitest"]) && !callsProvider(b.code)); // NETWORK: run against the fake provider below
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

describe("README.md provider blocks", () => {
  const weatherSchema = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
  const weatherResult = '{"city":"Paris","tempC":21}';
  const providerBlocks = blocks.filter((b) => callsProvider(b.code));

  it("every block that uses openai or @anthropic-ai/sdk is one of the round trips run against the fake provider", () => {
    expect(providerBlocks.map((b) => b.section)).toEqual(PROVIDER_SECTIONS);
  });

  describe("run unchanged against a local fake provider", () => {
    let fake: FakeProviders;
    beforeEach(async () => {
      fake = await startFakeProviders();
      const restoreEnv = setEnv(fake.env);
      return async () => {
        restoreEnv();
        await fake.close();
      };
    });

    const named = (section: string) => {
      const block = providerBlocks.find((b) => b.section === section);
      return `${section} (${block?.doc ?? "?"}:${block?.line ?? "?"})`;
    };
    /** Runs the block of `section` and returns its top-level bindings. */
    async function run(section: string): Promise<Record<string, unknown>> {
      const block = providerBlocks.find((b) => b.section === section);
      if (!block) throw new Error(`The docs have no provider block under "${section}"`);
      return (await import(block.file)) as Record<string, unknown>;
    }
    const received = () => fake.requests.map((r) => `${r.method} ${r.path}`);

    it(`${named("Models for the agent loop")}: streams one turn through the SDK and gives the events the README shows`, async () => {
      const { events } = await run("Models for the agent loop");

      expect(received()).toEqual(["POST /v1/chat/completions"]);
      expect(fake.requests[0]?.body).toEqual({
        model: "gpt-4.1",
        temperature: 0,
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: "user", content: "Weather in Paris?" }],
        tools: [{ type: "function", function: { name: "weather", description: "Weather by city", parameters: weatherSchema } }],
      });
      expect(events).toEqual([
        { type: "tool_input_started", id: FAKE_IDS.chatToolCall, name: "weather" },
        { type: "tool_input_delta", id: FAKE_IDS.chatToolCall, delta: '{"cit' },
        { type: "tool_input_delta", id: FAKE_IDS.chatToolCall, delta: 'y":"Paris"}' },
        { type: "tool_call", call: { id: FAKE_IDS.chatToolCall, name: "weather", arguments: { city: "Paris" }, rawArguments: '{"city":"Paris"}' } },
        { type: "finish", reason: "tool_calls" },
      ]);
    });

    it(`${named("Converting a conversation")}: one conversation, written for OpenAI and for Anthropic as the README shows`, async () => {
      const { forOpenAI, forAnthropic } = await run("Converting a conversation");

      expect(received()).toEqual(["POST /v1/chat/completions"]);
      expect(fake.requests[0]?.body).toMatchObject({
        messages: [
          { role: "system", content: "Be brief." },
          { role: "user", content: "Weather in Paris?" },
        ],
      });
      expect(forOpenAI).toEqual([
        { role: "system", content: "Be brief." },
        { role: "user", content: "Weather in Paris?" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: FAKE_IDS.chatToolCall, type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } }],
        },
        { role: "tool", tool_call_id: FAKE_IDS.chatToolCall, content: weatherResult },
      ]);
      expect(forAnthropic).toEqual({
        system: "Be brief.",
        messages: [
          { role: "user", content: "Weather in Paris?" },
          { role: "assistant", content: [{ type: "tool_use", id: FAKE_IDS.chatToolCall, name: "weather", input: { city: "Paris" } }] },
          { role: "user", content: [{ type: "tool_result", tool_use_id: FAKE_IDS.chatToolCall, content: weatherResult, is_error: false }] },
        ],
      });
    });

    it(`${named("OpenAI Chat Completions")}: sends the weather tool, then appends a tool message answering the model's call`, async () => {
      const { history } = await run("OpenAI Chat Completions");

      expect(received()).toEqual(["POST /v1/chat/completions"]);
      expect(fake.requests[0]?.body).toEqual({
        model: "gpt-4.1",
        messages: [{ role: "user", content: "Weather in Paris?" }],
        tools: [{ type: "function", function: { name: "weather", description: "Weather by city", parameters: weatherSchema } }],
      });
      expect(history).toEqual([
        { role: "user", content: "Weather in Paris?" },
        expect.objectContaining({ role: "assistant", tool_calls: [expect.objectContaining({ id: FAKE_IDS.chatToolCall })] }),
        { role: "tool", tool_call_id: FAKE_IDS.chatToolCall, content: weatherResult },
      ]);
    });

    it(`${named("OpenAI Responses")}: answers the function_call with a function_call_output on the follow-up request`, async () => {
      await run("OpenAI Responses");

      expect(received()).toEqual(["POST /v1/responses", "POST /v1/responses"]);
      const tools = [{ type: "function", name: "weather", description: "Weather by city", parameters: weatherSchema, strict: false }];
      const [first, followUp] = fake.requests;
      expect(first?.body).toEqual({ model: "gpt-4.1", input: "Weather in Paris?", tools });
      expect(followUp?.body).toEqual({
        model: "gpt-4.1",
        previous_response_id: FAKE_IDS.response,
        input: [{ type: "function_call_output", call_id: FAKE_IDS.responsesToolCall, output: weatherResult }],
        tools,
      });
    });

    it(`${named("Anthropic Messages")}: sends the weather tool, then appends a tool_result message answering the tool_use`, async () => {
      const { messages } = await run("Anthropic Messages");

      expect(received()).toEqual(["POST /v1/messages"]);
      expect(fake.requests[0]?.body).toEqual({
        model: "claude-sonnet-4-6",
        max_tokens: 1024,
        messages: [{ role: "user", content: "Weather in Paris?" }],
        tools: [{ name: "weather", description: "Weather by city", input_schema: weatherSchema }],
      });
      expect(messages).toEqual([
        { role: "user", content: "Weather in Paris?" },
        {
          role: "assistant",
          content: [
            expect.objectContaining({ type: "text" }),
            expect.objectContaining({ type: "tool_use", id: FAKE_IDS.anthropicToolUse, name: "weather", input: { city: "Paris" } }),
          ],
        },
        { role: "user", content: [{ type: "tool_result", tool_use_id: FAKE_IDS.anthropicToolUse, content: weatherResult, is_error: false }] },
      ]);
    });
  });
});
