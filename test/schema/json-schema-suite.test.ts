/**
 * toolrx against the official JSON Schema Test Suite (json-schema-org, MIT licensed), on the
 * cases whose instance is an object, as tool arguments are, for drafts 2020-12 and 07.
 *
 * The suite is not committed here, and no npm package carries its draft 2020-12 and draft-07
 * files (checked: json-schema-test-suite@0.0.10 stops at draft 4, @json-schema-org/tests depends
 * on a git URL, validators ship without it). Debian's `libtest-json-schema-acceptance-perl`
 * carries them, with the suite's MIT license in its copyright file: `.ci/run` installs it, and
 * this test finds it there. Or point JSON_SCHEMA_TEST_SUITE at a checkout of the suite:
 *
 *   JSON_SCHEMA_TEST_SUITE=../JSON-Schema-Test-Suite npx vitest run test/json-schema-suite.test.ts
 *
 * Under CI (`CI=true`) a missing suite is a failure, so the figures cannot silently go unmeasured.
 *
 * A case counts as answered right when a call with that instance is answered as the suite says
 * (handler reached, or refused with invalid arguments). A schema `defineTool` refuses answers
 * right every case whose instance is invalid (no call can reach a handler) and wrong every other
 * one, and the test fails if any schema with a valid object instance is refused.
 */
import { Validator, type SchemaDraft } from "@cfworker/json-schema";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defineTool, ok, runToolCalls, type Tool, type ToolCall } from "../../src/index.js";

/** Where Debian's libtest-json-schema-acceptance-perl installs the suite, and its license text. */
const DEBIAN_SUITE = "/usr/share/perl5/auto/share/dist/Test-JSON-Schema-Acceptance";
const DEBIAN_LICENSE = "/usr/share/doc/libtest-json-schema-acceptance-perl/copyright";

const root = process.env.JSON_SCHEMA_TEST_SUITE ?? (existsSync(DEBIAN_SUITE) ? DEBIAN_SUITE : undefined);
const licensed = root !== undefined && (existsSync(join(root, "LICENSE")) || (root === DEBIAN_SUITE && existsSync(DEBIAN_LICENSE)));
const available = licensed && existsSync(join(root, "tests", "draft2020-12")) && existsSync(join(root, "tests", "draft7"));

interface SuiteGroup {
  file: string;
  description: string;
  schema: unknown;
  tests: { description: string; data: Record<string, unknown>; valid: boolean }[];
}

const DRAFTS = [
  { dir: "draft2020-12", $schema: "https://json-schema.org/draft/2020-12/schema", cfworker: "2020-12" as SchemaDraft },
  { dir: "draft7", $schema: "http://json-schema.org/draft-07/schema#", cfworker: "7" as SchemaDraft },
];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function groupsOf(dir: string): SuiteGroup[] {
  const folder = join(root ?? "", "tests", dir);
  return readdirSync(folder)
    .filter((f) => f.endsWith(".json") && f !== "refRemote.json")
    .sort()
    .flatMap((file) =>
      (JSON.parse(readFileSync(join(folder, file), "utf8")) as SuiteGroup[]).map((g) => ({ ...g, file, tests: g.tests.filter((t) => isObject(t.data)) })),
    )
    .filter((g) => g.tests.length > 0);
}

const BASE = "https://toolrx.test/root.json";

/** Whether the schema needs a document from outside itself: the suite's remotes or a meta-schema. */
function needsRemote(schema: unknown): boolean {
  const ids = new Set([BASE]);
  const refs: string[] = [];
  let customDialect = false;
  const strip = (url: string) => url.replace(/#.*$/, "");
  const walk = (node: unknown, base: string) => {
    if (Array.isArray(node)) {
      for (const n of node) walk(n, base);
      return;
    }
    if (!isObject(node)) return;
    let here = base;
    if (typeof node.$id === "string") {
      try {
        here = strip(new URL(node.$id, base).href);
        ids.add(here);
      } catch {
        // An id that is not a URL resolves nothing remote.
      }
    }
    if (typeof node.$schema === "string" && !/json-schema\.org\/(draft|schema)/.test(node.$schema)) customDialect = true;
    for (const key of ["$ref", "$dynamicRef", "$recursiveRef"]) {
      const ref = node[key];
      if (typeof ref !== "string") continue;
      try {
        refs.push(strip(new URL(ref, here).href));
      } catch {
        // Unresolvable against a urn base: such refs point inside the document.
      }
    }
    for (const [key, value] of Object.entries(node)) if (key !== "const" && key !== "enum") walk(value, here);
  };
  walk(schema, BASE);
  return customDialect || refs.some((r) => !ids.has(r));
}

interface Score {
  right: number;
  total: number;
  refused: number;
  refusedWithValidInstance: string[];
  wrong: string[];
}

async function scoreToolrx(groups: SuiteGroup[], $schema: string): Promise<Score> {
  const score: Score = { right: 0, total: 0, refused: 0, refusedWithValidInstance: [], wrong: [] };
  for (const group of groups) {
    const schema = isObject(group.schema) && group.schema.$schema === undefined ? { $schema, ...group.schema } : group.schema;
    let tool: Tool;
    try {
      tool = defineTool({ name: "t", description: "", schema: schema as never, handler: () => ok("valid") });
    } catch {
      score.refused++;
      for (const t of group.tests) {
        score.total++;
        if (!t.valid) score.right++;
        else score.wrong.push(`${group.file} › ${group.description} › ${t.description} (refused)`);
      }
      if (group.tests.some((t) => t.valid)) score.refusedWithValidInstance.push(`${group.file} › ${group.description}`);
      continue;
    }
    const calls: ToolCall[] = group.tests.map((t, i) => ({ id: `c${i}`, name: "t", arguments: structuredClone(t.data) }));
    const { messages } = await runToolCalls(calls, [tool]);
    group.tests.forEach((t, i) => {
      score.total++;
      const answeredValid = messages[i]?.content === "valid";
      if (answeredValid === t.valid) score.right++;
      else score.wrong.push(`${group.file} › ${group.description} › ${t.description}`);
    });
  }
  return score;
}

/** The dedicated validator alone on the same cases, as the reference figure. */
function scoreCfworker(groups: SuiteGroup[], draft: SchemaDraft): number {
  let right = 0;
  for (const group of groups) {
    for (const t of group.tests) {
      try {
        if (new Validator(structuredClone(group.schema) as never, draft).validate(t.data).valid === t.valid) right++;
      } catch {
        // A throw answers nothing, so it is not right.
      }
    }
  }
  return right;
}

const pct = (n: number, d: number) => `${((100 * n) / d).toFixed(1)}%`;

describe.skipIf(!available)("the JSON Schema Test Suite, object instances", () => {
  it.each(DRAFTS)("$dir: answers at least as many cases right as @cfworker/json-schema alone, and refuses no valid tool schema", async (draft) => {
    const all = groupsOf(draft.dir);
    const boolean = all.filter((g) => typeof g.schema === "boolean");
    const remote = all.filter((g) => typeof g.schema !== "boolean" && needsRemote(g.schema));
    const groups = all.filter((g) => typeof g.schema !== "boolean" && !needsRemote(g.schema));
    const toolrx = await scoreToolrx(groups, draft.$schema);
    const cfworker = scoreCfworker(groups, draft.cfworker);
    const cases = (gs: SuiteGroup[]) => gs.reduce((n, g) => n + g.tests.length, 0);
    console.log(
      [
        `JSON Schema Test Suite ${draft.dir}, object instances: toolrx ${toolrx.right}/${toolrx.total} (${pct(toolrx.right, toolrx.total)}), ` +
          `@cfworker/json-schema alone ${cfworker}/${toolrx.total} (${pct(cfworker, toolrx.total)})`,
        `  schemas refused by defineTool: ${toolrx.refused} (with a valid object instance: ${toolrx.refusedWithValidInstance.length})`,
        `  left out: ${cases(remote)} cases needing remote documents, ${cases(boolean)} cases of boolean root schemas (not tool schemas)`,
        ...toolrx.wrong.map((w) => `  wrong: ${w}`),
      ].join("\n"),
    );
    expect(toolrx.refusedWithValidInstance).toEqual([]);
    expect(toolrx.right).toBeGreaterThanOrEqual(cfworker);
  });
});

if (!available) {
  console.log("JSON Schema Test Suite not found (JSON_SCHEMA_TEST_SUITE unset, Debian's copy not installed): the suite figures were not measured in this run");
}

describe.runIf(process.env.CI === "true")("under CI", () => {
  it("has the JSON Schema Test Suite to measure against", () => {
    expect(available, `install Debian's libtest-json-schema-acceptance-perl or set JSON_SCHEMA_TEST_SUITE`).toBe(true);
  });
});
