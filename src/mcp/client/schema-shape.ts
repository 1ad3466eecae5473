import { isPlainRecord } from "../../util/safe.js";

const TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);
const SCHEMA_MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];
const SCHEMA_LISTS = ["anyOf", "oneOf", "allOf", "prefixItems"];
const SCHEMAS = ["not", "if", "then", "else", "contains", "propertyNames", "additionalProperties", "unevaluatedProperties", "unevaluatedItems"];

/**
 * Why `schema` is not a JSON Schema, if it is not: the keywords whose shape the spec fixes
 * (`type`, `required`, `enum`, subschemas) are checked all the way down. A server's schema is
 * untrusted input; a validator may accept nonsense such as `{ "type": 42 }` and never match.
 */
export function schemaProblem(schema: unknown, path = "inputSchema"): string | undefined {
  if (typeof schema === "boolean") return undefined;
  if (!isPlainRecord(schema)) return `${path} is not an object or a boolean`;
  const { type, required, enum: values, items } = schema;
  const types = Array.isArray(type) ? type : type === undefined ? [] : [type];
  const badType = types.find((t) => typeof t !== "string" || !TYPES.has(t));
  if (badType !== undefined) return `${path}.type is ${JSON.stringify(badType)}, not a JSON Schema type`;
  if (required !== undefined && !(Array.isArray(required) && required.every((r) => typeof r === "string"))) {
    return `${path}.required is not an array of property names`;
  }
  if (values !== undefined && !Array.isArray(values)) return `${path}.enum is not an array`;
  for (const key of SCHEMA_MAPS) {
    const map = schema[key];
    if (map === undefined) continue;
    if (!isPlainRecord(map)) return `${path}.${key} is not an object of schemas`;
    for (const [name, sub] of Object.entries(map)) {
      const problem = schemaProblem(sub, `${path}.${key}.${name}`);
      if (problem !== undefined) return problem;
    }
  }
  for (const key of SCHEMA_LISTS) {
    const list = schema[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) return `${path}.${key} is not an array of schemas`;
    for (let i = 0; i < list.length; i++) {
      const problem = schemaProblem(list[i], `${path}.${key}[${i}]`);
      if (problem !== undefined) return problem;
    }
  }
  for (const key of [...SCHEMAS, ...(Array.isArray(items) ? [] : ["items"])]) {
    if (schema[key] === undefined) continue;
    const problem = schemaProblem(schema[key], `${path}.${key}`);
    if (problem !== undefined) return problem;
  }
  return undefined;
}
