/**
 * The `default`s a JSON Schema gives its properties, root first and down through nested
 * `properties`, found once per tool. json-schema-to-ts types a defaulted property as always
 * there, so the handler must receive it: the defaults are filled in, as zod does for zod schemas.
 */
export interface DefaultsPlan {
  readonly values: ReadonlyArray<readonly [string, unknown]>;
  readonly nested: ReadonlyArray<readonly [string, DefaultsPlan]>;
}

/** The plan for a schema, or `undefined` when it gives no default (the common case: free). */
export function defaultsPlan(schema: unknown): DefaultsPlan | undefined {
  const properties = (schema as { properties?: unknown } | undefined)?.properties;
  if (typeof properties !== "object" || properties === null || Array.isArray(properties)) return undefined;
  const values: [string, unknown][] = [];
  const nested: [string, DefaultsPlan][] = [];
  for (const [key, property] of Object.entries(properties)) {
    if (typeof property !== "object" || property === null) continue;
    if (Object.hasOwn(property, "default")) values.push([key, (property as { default: unknown }).default]);
    const inner = defaultsPlan(property);
    if (inner !== undefined) nested.push([key, inner]);
  }
  return values.length === 0 && nested.length === 0 ? undefined : { values, nested };
}

/**
 * The arguments with missing defaulted fields filled in. Objects are copied only on the way to a
 * field that changes, so the caller's arguments are never modified, and each default is a fresh
 * copy, so a handler that changes it does not change the schema.
 */
export function withDefaults(args: Record<string, unknown>, plan: DefaultsPlan): Record<string, unknown> {
  let out = args;
  const set = (key: string, value: unknown) => {
    if (out === args) out = { ...args };
    // defineProperty, so a key named "__proto__" stays data instead of re-parenting the copy.
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  };
  for (const [key, value] of plan.values) {
    if (!Object.hasOwn(args, key)) set(key, fresh(value));
  }
  for (const [key, inner] of plan.nested) {
    const value = out[key];
    if (typeof value !== "object" || value === null || Array.isArray(value)) continue;
    const filled = withDefaults(value as Record<string, unknown>, inner);
    if (filled !== value) set(key, filled);
  }
  return out;
}

function fresh(value: unknown): unknown {
  return typeof value === "object" && value !== null ? (JSON.parse(JSON.stringify(value)) as unknown) : value;
}
