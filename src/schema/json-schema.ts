import { Validator, type OutputUnit, type Schema, type SchemaDraft } from "@cfworker/json-schema";
import { flatObjectCheck } from "./flat-object-check.js";
import { defaultsPlan, withDefaults } from "./json-schema-defaults.js";
import { jsonSchemaIssues, type SchemaLookup } from "./json-schema-issues.js";
import { schemaTypeError } from "./schema-type-error.js";
import type { ArgumentIssue } from "./invalid-arguments-error.js";
import type { CompiledSchema, JsonSchema } from "./types.js";

/** The dialects by `$schema` URI (scheme and trailing `#` aside). Draft-06 validates as draft-07. */
const DIALECTS: Readonly<Record<string, SchemaDraft>> = {
  "//json-schema.org/draft-04/schema": "4",
  "//json-schema.org/draft-06/schema": "7",
  "//json-schema.org/draft-07/schema": "7",
  "//json-schema.org/draft/2019-09/schema": "2019-09",
  "//json-schema.org/draft/2020-12/schema": "2020-12",
};

/**
 * Prepare a JSON Schema: validated as its `$schema` dialect says (2020-12 when absent, as MCP
 * specifies) by @cfworker/json-schema, an interpreter: no `eval` or `new Function`, so it runs on
 * edge runtimes and CSP pages. The provider receives the schema as written.
 *
 * @throws {TypeError} when the schema is not JSON data, has a `$ref` that does not resolve within
 * it (toolrx fetches nothing), or a `pattern` that is not a valid regular expression.
 */
export function compileJsonSchema(schema: JsonSchema, where: string): CompiledSchema {
  const draft = dialectOf(schema.$schema, where);
  let copy: Schema;
  try {
    // The validator marks the schema objects it reads; it works on a copy so the user's stays as written.
    copy = JSON.parse(JSON.stringify(schema)) as Schema;
  } catch (cause) {
    throw schemaTypeError(where, "is not JSON data", cause);
  }
  let fast: Validator;
  try {
    fast = new Validator(copy, draft, true);
  } catch (cause) {
    throw schemaTypeError(where, "is not a JSON Schema toolrx can validate", cause);
  }
  const lookup = (fast as unknown as { lookup: SchemaLookup }).lookup;
  assertUsable(copy, lookup, where);
  // Short-circuiting stops at the first failure; the full list, for the model, is only worth its cost once a call failed.
  const full = new Validator(copy, draft, false);
  const plan = defaultsPlan(copy);
  // Read from the schema as written: the validator has marked the copy with keys of its own.
  const flat = flatObjectCheck(schema);

  /** The problems with the arguments as sent, none when valid; throws on values JSON has not. */
  function problems(args: Record<string, unknown>): ArgumentIssue[] | undefined {
    if (flat?.(args) === true || fast.validate(args).valid) return undefined;
    return jsonSchemaIssues(full.validate(args).errors as OutputUnit[], args, copy, lookup);
  }

  return {
    jsonSchema: schema,
    validate(args) {
      let issues: readonly ArgumentIssue[] | undefined;
      try {
        issues = problems(args);
      } catch {
        issues = problemsAsJson(args, problems);
      }
      if (issues !== undefined) return { ok: false, issues };
      // Judged as sent (a default is an annotation in JSON Schema), then filled in for the handler.
      return { ok: true, value: plan === undefined ? args : withDefaults(args, plan) };
    },
  };
}

/**
 * Arguments built in code may hold what JSON cannot (`undefined`, a function), which the
 * validator refuses to look at. They are judged as the JSON they would be sent as; the handler
 * still receives them as they are.
 */
function problemsAsJson(
  args: Record<string, unknown>,
  problems: (args: Record<string, unknown>) => ArgumentIssue[] | undefined,
): readonly ArgumentIssue[] | undefined {
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(JSON.stringify(args)) as Record<string, unknown>;
  } catch (e) {
    return refusal(`the arguments are not JSON data (${messageOf(e)})`);
  }
  try {
    return problems(json);
  } catch (e) {
    return refusal(`the arguments could not be checked against the tool's schema (${messageOf(e)})`);
  }
}

function refusal(why: string): ArgumentIssue[] {
  return [{ code: "invalid_type", path: [], message: `Invalid input: ${why}` }];
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function dialectOf($schema: unknown, where: string): SchemaDraft {
  if ($schema === undefined) return "2020-12";
  if (typeof $schema !== "string") {
    throw schemaTypeError(where, `has a \`$schema\` that is not a string (${typeof $schema})`);
  }
  // Unknown dialects (OpenAPI 3.1's, a custom meta-schema) build on 2020-12 far more often than not.
  return DIALECTS[$schema.replace(/^https?:/, "").replace(/#$/, "")] ?? "2020-12";
}

/** Keywords whose values are data, not subschemas: a `pattern` or `$ref` key inside them means nothing. */
const DATA_KEYWORDS = /* @__PURE__ */ new Set(["const", "enum", "default", "examples"]);
/** Keywords whose values map names to subschemas: there, any key (even "enum") names a schema. */
const MAP_KEYWORDS = /* @__PURE__ */ new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);

/**
 * Refuse, where the tool is defined, what would otherwise fail on every call: a `$ref` the
 * validator cannot resolve, or a `pattern` that is not a regular expression.
 */
function assertUsable(node: unknown, lookup: SchemaLookup, where: string, isMap = false): void {
  if (Array.isArray(node)) {
    for (const item of node) assertUsable(item, lookup, where);
    return;
  }
  if (typeof node !== "object" || node === null) return;
  if (isMap) {
    for (const value of Object.values(node)) assertUsable(value, lookup, where);
    return;
  }
  const marks = node as { __absolute_ref__?: string; __absolute_recursive_ref__?: string; $ref?: unknown; pattern?: unknown; patternProperties?: unknown };
  for (const ref of [marks.__absolute_ref__, marks.__absolute_recursive_ref__]) {
    if (ref !== undefined && lookup[ref] === undefined) {
      throw schemaTypeError(
        where,
        `has a \`$ref\` toolrx cannot resolve: ${JSON.stringify(marks.$ref ?? ref)} (toolrx fetches no remote schema: put it under \`$defs\`)`,
      );
    }
  }
  if (typeof marks.pattern === "string") assertPattern(marks.pattern, where);
  if (typeof marks.patternProperties === "object" && marks.patternProperties !== null) {
    for (const pattern of Object.keys(marks.patternProperties)) assertPattern(pattern, where);
  }
  for (const [key, value] of Object.entries(node)) {
    if (!DATA_KEYWORDS.has(key)) assertUsable(value, lookup, where, MAP_KEYWORDS.has(key));
  }
}

function assertPattern(pattern: string, where: string): void {
  try {
    new RegExp(pattern, "u");
  } catch (cause) {
    throw schemaTypeError(where, `has a \`pattern\` that is not a valid regular expression: ${JSON.stringify(pattern)}`, cause);
  }
}
