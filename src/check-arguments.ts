import { InvalidArgumentsError } from "./invalid-arguments-error.js";
import type { Validation } from "./schema.js";
import { compiledSchemaOf, type Tool } from "./tool.js";
import { isPlainRecord, type ToolCall } from "./tool-call.js";
import { isThenable } from "./results.js";

/** Valid arguments (the schema's output), or the error to answer the model with. */
export type CheckedArguments =
  | { readonly ok: true; readonly value: Record<string, unknown> }
  | { readonly ok: false; readonly error: InvalidArgumentsError };

/**
 * Check a call's arguments before its handler runs: the provider's JSON text must parse, and
 * the arguments must match the tool's schema. Synchronous unless the schema has async checks.
 */
export function checkArguments(tool: Tool, call: ToolCall): CheckedArguments | Promise<CheckedArguments> {
  const raw = call.rawArguments;
  if (raw !== undefined && raw.trim() !== "") {
    const problem = rawProblem(raw);
    if (problem !== undefined) {
      return { ok: false, error: new InvalidArgumentsError(call.name, [{ code: "invalid_json", path: [], message: problem }]) };
    }
  }
  const validation = compiledSchemaOf(tool).validate(call.arguments);
  return isThenable(validation) ? validation.then((v) => checked(v, call)) : checked(validation, call);
}

function checked(validation: Validation, call: ToolCall): CheckedArguments {
  return validation.ok ? validation : { ok: false, error: new InvalidArgumentsError(call.name, validation.issues) };
}

/** Why the provider's text cannot be a call's arguments, if it cannot. */
function rawProblem(raw: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (e) {
    return `the arguments were not valid JSON (${e instanceof Error ? e.message : String(e)})`;
  }
  return isPlainRecord(parsed) ? undefined : "the arguments were not valid JSON: expected an object";
}
