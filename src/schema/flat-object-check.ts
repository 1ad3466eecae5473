/** The scalar types a flat property may have, each with the test JSON Schema's `type` means. */
const SCALARS: Readonly<Record<string, (value: unknown) => boolean>> = {
  string: (value) => typeof value === "string",
  number: (value) => typeof value === "number" && Number.isFinite(value),
  integer: (value) => Number.isInteger(value),
  boolean: (value) => typeof value === "boolean",
};

/** Keywords that only annotate: they change no verdict. */
const ANNOTATIONS = /* @__PURE__ */ new Set(["description", "title", "$comment"]);
const TOP_KEYWORDS = /* @__PURE__ */ new Set(["$schema", "type", "properties", "required", "additionalProperties", ...ANNOTATIONS]);

/**
 * The verdict on arguments for the commonest tool schema, an object of scalar properties
 * (`{ type: "object", properties: { a: { type: "number" } }, required: ["a"] }`, what most MCP
 * servers list), without walking the general validator: it builds a JSON pointer per property
 * even on success, which cost more than the rest of an MCP call's own work. `undefined` for any
 * other schema: a keyword this check does not know sends the schema to the general validator.
 *
 * The check says the same as the general validator on every JSON object (a property compares the
 * two); a value JSON has not (`undefined`, a function, a non-finite number) it calls invalid, so
 * the general path judges it and explains.
 */
export function flatObjectCheck(schema: unknown): ((args: Record<string, unknown>) => boolean) | undefined {
  if (!isRecord(schema) || schema.type !== "object") return undefined;
  for (const key of Object.keys(schema)) if (!TOP_KEYWORDS.has(key)) return undefined;
  const { properties = {}, required = [], additionalProperties = true } = schema;
  if (!isRecord(properties) || !Array.isArray(required) || typeof additionalProperties !== "boolean") return undefined;
  const names = Object.keys(properties);
  const tests: ((value: unknown) => boolean)[] = [];
  for (const name of names) {
    const property = properties[name];
    if (!isRecord(property) || typeof property.type !== "string" || !Object.hasOwn(SCALARS, property.type)) return undefined;
    for (const key of Object.keys(property)) if (key !== "type" && !ANNOTATIONS.has(key)) return undefined;
    tests.push(SCALARS[property.type] as (value: unknown) => boolean);
  }
  if (!required.every((name): name is string => typeof name === "string")) return undefined;
  const known = new Set(names);
  return (args) => {
    for (const name of required) if (!Object.hasOwn(args, name)) return false;
    let seen = 0;
    for (let i = 0; i < names.length; i++) {
      const name = names[i] as string;
      if (!Object.hasOwn(args, name)) continue;
      seen++;
      if (!(tests[i] as (value: unknown) => boolean)(args[name])) return false;
    }
    // Every other key is unchecked when extra keys are allowed, so a value JSON has not could hide there.
    const keys = Object.keys(args);
    if (keys.length === seen) return true;
    if (!additionalProperties) return false;
    for (const key of keys) if (!known.has(key) && !isJsonValue(args[key])) return false;
    return true;
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Data JSON can carry, judged shallowly: nested objects and arrays go to the general path. */
function isJsonValue(value: unknown): boolean {
  return value === null || typeof value === "string" || typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value));
}
