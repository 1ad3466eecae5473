/**
 * The `TypeError` `defineTool` throws for a schema toolrx cannot use: it names the tool's schema,
 * says why, and carries what the schema library threw as `cause`.
 *
 * @example
 * schemaTypeError('`schema` of tool "weather"', "cannot be expressed as JSON Schema", err).message;
 * // '`schema` of tool "weather" cannot be expressed as JSON Schema: Date cannot be represented in JSON Schema'
 */
export function schemaTypeError(where: string, why: string, cause?: unknown): TypeError {
  if (cause === undefined) return new TypeError(`${where} ${why}`);
  return new TypeError(`${where} ${why}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
}
