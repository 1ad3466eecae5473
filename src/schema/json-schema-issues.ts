import type { OutputUnit } from "@cfworker/json-schema";
import type { ArgumentIssue } from "./invalid-arguments-error.js";

/** Where the validator resolves `$ref`s: its lookup from absolute URI to subschema. */
export type SchemaLookup = Record<string, unknown>;

/**
 * Keywords whose error only says "a subschema had errors": the errors below them say what, so
 * the wrapper itself adds nothing a model can act on.
 */
const WRAPPERS = /* @__PURE__ */ new Set([
  "$ref",
  "$recursiveRef",
  "properties",
  "patternProperties",
  "additionalProperties",
  "unevaluatedProperties",
  "items",
  "prefixItems",
  "additionalItems",
  "unevaluatedItems",
  "allOf",
  "dependentSchemas",
  "then",
  "else",
]);

/** Keywords that sum up their subschemas' failures; the failures of each branch would mislead. */
const SUMMARIES = /* @__PURE__ */ new Set(["anyOf", "oneOf", "not", "contains", "propertyNames"]);

/**
 * The validator's output units as zod-shaped issues, one per thing the model got wrong, each
 * with the field's path and what was expected, worded like zod's messages so a model reads the
 * same kind of text whatever schema the tool has.
 */
export function jsonSchemaIssues(units: readonly OutputUnit[], instance: unknown, schema: unknown, lookup: SchemaLookup): ArgumentIssue[] {
  const summaries = units.filter((u) => SUMMARIES.has(u.keyword)).map((u) => `${u.keywordLocation}/`);
  const issues: ArgumentIssue[] = [];
  const seen = new Set<string>();
  for (const unit of units) {
    if (WRAPPERS.has(unit.keyword) && !isDependencyLeaf(unit)) continue;
    if (summaries.some((prefix) => unit.keywordLocation.startsWith(prefix))) continue;
    const issue = issueOf(unit, pathOf(unit.instanceLocation, instance), schema, lookup);
    const key = JSON.stringify([issue.path.map(String), issue.message]);
    if (!seen.has(key)) {
      seen.add(key);
      issues.push(issue);
    }
  }
  if (issues.length === 0 && units[0] !== undefined) {
    issues.push({ code: "custom", path: pathOf(units[0].instanceLocation, instance), message: units[0].error });
  }
  return issues;
}

function isDependencyLeaf(unit: OutputUnit): boolean {
  return unit.keyword === "dependentSchemas" && / but does not have /.test(unit.error);
}

function issueOf(unit: OutputUnit, path: PropertyKey[], schema: unknown, lookup: SchemaLookup): ArgumentIssue {
  const { keyword, error } = unit;
  const last = (re: RegExp) => re.exec(error)?.[1];
  switch (keyword) {
    case "type": {
      const match = /^Instance type "(\w+)" is invalid\. Expected (.*)\.$/.exec(error);
      const expected = match?.[2]?.replace(/"/g, "").split(", ").join(" | ");
      return { code: "invalid_type", path, message: `Invalid input: expected ${expected ?? "another type"}, received ${match?.[1] ?? "another type"}` };
    }
    case "required": {
      const key = last(/property "(.*)"\.$/) ?? "";
      const parent = schemaAt(schema, unit.keywordLocation.replace(/\/required$/, ""), lookup);
      const type = typeName(propertySchema(parent, key));
      return { code: "invalid_type", path: [...path, key], message: `Invalid input: expected ${type}, received undefined` };
    }
    case "dependentRequired":
    case "dependencies":
    case "dependentSchemas": {
      const match = /^Instance has "(.*)" but does not have "(.*)"\.$/.exec(error);
      if (match === null) break;
      return { code: "invalid_type", path: [...path, match[2] ?? ""], message: `Invalid input: required when "${match[1]}" is present, received undefined` };
    }
    case "const":
      return { code: "invalid_value", path, message: `Invalid input: expected ${last(/^Instance does not match (.*)\.$/) ?? "the constant"}` };
    case "enum": {
      const options = parseJson(last(/any of (.*)\.$/));
      const listed = Array.isArray(options) ? options.map((o) => JSON.stringify(o)).join("|") : "the listed values";
      return { code: "invalid_value", path, message: `Invalid option: expected one of ${listed}` };
    }
    case "minimum":
    case "exclusiveMinimum":
    case "maximum":
    case "exclusiveMaximum": {
      const small = keyword.endsWith("inimum");
      // Draft 4 says exclusive with a boolean beside `minimum`; the validator's text says which.
      const strict = keyword.startsWith("exclusive") || / or equal to /.test(error);
      const bound = String(valueAt(unit, schema, lookup) ?? last(/ (-?[\d.]+(?:e[-+]?\d+)?)\.$/i) ?? "the bound");
      return small
        ? { code: "too_small", path, message: `Too small: expected number to be ${strict ? ">" : ">="}${bound}` }
        : { code: "too_big", path, message: `Too big: expected number to be ${strict ? "<" : "<="}${bound}` };
    }
    case "multipleOf":
      return {
        code: "not_multiple_of",
        path,
        message: `Invalid number: must be a multiple of ${String(valueAt(unit, schema, lookup) ?? last(/multiple of (.*)\.$/))}`,
      };
    case "minLength":
    case "maxLength":
    case "minItems":
    case "maxItems":
    case "minProperties":
    case "maxProperties": {
      const bound = String(valueAt(unit, schema, lookup) ?? last(/(\d+)\)?\.$/) ?? last(/(\d+) properties/));
      const what = keyword.endsWith("Length") ? "string" : keyword.endsWith("Items") ? "array" : "object";
      const counted = keyword.endsWith("Length") ? "characters" : keyword.endsWith("Items") ? "items" : "properties";
      return keyword.startsWith("min")
        ? { code: "too_small", path, message: `Too small: expected ${what} to have >=${bound} ${counted}` }
        : { code: "too_big", path, message: `Too big: expected ${what} to have <=${bound} ${counted}` };
    }
    case "pattern": {
      const pattern = schemaAt(schema, unit.keywordLocation, lookup);
      return { code: "invalid_format", path, message: `Invalid string: must match pattern ${typeof pattern === "string" ? `/${pattern}/` : "of the schema"}` };
    }
    case "format":
      return { code: "invalid_format", path, message: `Invalid string: expected format "${last(/format "(.*)"\.$/) ?? "?"}"` };
    case "false": {
      const key = path[path.length - 1];
      return typeof key === "string"
        ? { code: "unrecognized_keys", path, message: `Unrecognized key: "${key}"` }
        : { code: "custom", path, message: "Invalid input: no value is allowed here" };
    }
    case "anyOf":
      return { code: "invalid_union", path, message: "Invalid input: matches none of the allowed shapes" };
    case "oneOf":
      return /\(0 matches\)/.test(error)
        ? { code: "invalid_union", path, message: "Invalid input: matches none of the allowed shapes" }
        : { code: "invalid_union", path, message: "Invalid input: matches more than one of the shapes, exactly one is allowed" };
    case "not":
      return { code: "custom", path, message: "Invalid input: matches a shape the schema forbids" };
    case "propertyNames": {
      const key = last(/^Property name "(.*)" does not match schema\.$/) ?? "";
      return { code: "invalid_key", path: [...path, key], message: `Invalid key: "${key}" is not an allowed property name` };
    }
    case "uniqueItems":
      return { code: "custom", path, message: `Invalid input: array items must be unique (${error.replace(/\.$/, "")})` };
  }
  return { code: "custom", path, message: error };
}

/** The instance location `#/address/lines/1` as `["address", "lines", 1]`: array indices as numbers. */
function pathOf(location: string, instance: unknown): PropertyKey[] {
  if (location === "#" || location === "") return [];
  const path: PropertyKey[] = [];
  let node = instance;
  for (const raw of location.slice(2).split("/")) {
    const segment = decodeSegment(raw);
    const key: PropertyKey = Array.isArray(node) && /^\d+$/.test(segment) ? Number(segment) : segment;
    path.push(key);
    node = typeof node === "object" && node !== null ? (node as Record<PropertyKey, unknown>)[key] : undefined;
  }
  return path;
}

/** The value of the keyword that failed, as the schema gives it. */
function valueAt(unit: OutputUnit, schema: unknown, lookup: SchemaLookup): unknown {
  const value = schemaAt(schema, unit.keywordLocation, lookup);
  return typeof value === "number" ? value : undefined;
}

/** The subschema at a keyword location; `$ref` steps follow the reference as the validator did. */
function schemaAt(schema: unknown, location: string, lookup: SchemaLookup): unknown {
  let node = schema;
  for (const raw of location === "#" ? [] : location.slice(2).split("/")) {
    if (typeof node !== "object" || node === null) return undefined;
    const segment = decodeSegment(raw);
    node = segment === "$ref" ? lookup[(node as { __absolute_ref__?: string }).__absolute_ref__ ?? ""] : (node as Record<string, unknown>)[segment];
  }
  return node;
}

function propertySchema(parent: unknown, key: string): unknown {
  const properties = (parent as { properties?: unknown } | undefined)?.properties;
  return typeof properties === "object" && properties !== null && Object.hasOwn(properties, key) ? (properties as Record<string, unknown>)[key] : undefined;
}

/** What a property's schema expects, in a word, for "expected string, received undefined". */
function typeName(schema: unknown): string {
  const type = (schema as { type?: unknown } | undefined)?.type;
  if (typeof type === "string") return type;
  if (Array.isArray(type) && type.every((t) => typeof t === "string")) return type.join(" | ");
  return "a value";
}

function decodeSegment(raw: string): string {
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // A lone "%" in a key was never encoded: the raw text is the key.
  }
  return decoded.replace(/~1/g, "/").replace(/~0/g, "~");
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
