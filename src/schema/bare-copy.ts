/**
 * Names every plain object inherits. A schema with an optional property of one of these names
 * sees the inherited function when a validator reads `args[name]` on an object that leaves the
 * field out, and refuses a call that is valid.
 */
const INHERITED = /* @__PURE__ */ new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * Whether a JSON Schema names a property that plain objects inherit, anywhere in it. Checked
 * once per tool, so calls to the common schemas pay nothing for {@link bareCopy}.
 */
export function namesInheritedProperty(jsonSchema: unknown): boolean {
  if (Array.isArray(jsonSchema)) return jsonSchema.some(namesInheritedProperty);
  if (typeof jsonSchema === "string") return INHERITED.has(jsonSchema);
  if (typeof jsonSchema !== "object" || jsonSchema === null) return false;
  for (const [key, value] of Object.entries(jsonSchema)) {
    if (INHERITED.has(key) || namesInheritedProperty(value)) return true;
  }
  return false;
}

/**
 * A copy of the arguments whose plain objects have no prototype, so a validator sees only the
 * fields the model sent. Own `__proto__` keys stay own data: on a prototype-less object that
 * name is an ordinary property, not the accessor that would re-parent the copy.
 */
export function bareCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(bareCopy);
  if (typeof value !== "object" || value === null || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const copy: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(value)) copy[key] = bareCopy((value as Record<string, unknown>)[key]);
  return copy;
}

/**
 * The inverse of {@link bareCopy} for what a validator hands back: a library that returns its
 * input (ArkType) or passes fields through (`z.unknown()`) would give the handler objects without
 * `hasOwnProperty` and the rest, so prototype-less objects become ordinary ones again.
 */
export function plainCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plainCopy);
  if (typeof value !== "object" || value === null) return value;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== null && prototype !== Object.prototype) return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    // defineProperty keeps an own "__proto__" key as data on an ordinary object.
    Object.defineProperty(copy, key, { value: plainCopy((value as Record<string, unknown>)[key]), enumerable: true, writable: true, configurable: true });
  }
  return copy;
}
