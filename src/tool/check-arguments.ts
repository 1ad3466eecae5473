import { InvalidArgumentsError } from "../schema/invalid-arguments-error.js";
import type { Validation } from "../schema/tool-schema.js";
import { compiledSchemaOf, type Tool } from "./tool.js";
import type { ToolCall } from "./tool-call.js";
import { isPlainRecord } from "../util/safe.js";

/** Valid arguments (the schema's output), or the error to answer the model with. */
export type CheckedArguments = { readonly ok: true; readonly value: Record<string, unknown> } | { readonly ok: false; readonly error: InvalidArgumentsError };

/**
 * Check a call's arguments against its tool's schema, exactly as the runner does before the
 * handler runs: the provider's JSON text (`rawArguments`) must parse to an object, and the
 * arguments must match the schema. Useful where the host answers a call itself (a manual tool).
 * Synchronous unless the schema has async checks.
 *
 * @param tool - the tool the call names
 * @param call - the call, as parsed from the provider
 * @returns `{ ok: true, value }` with the schema's output (zod defaults applied), or
 * `{ ok: false, error }` with the {@link InvalidArgumentsError} the model would be answered with
 *
 * @example
 * const checked = checkArguments(weather, { id: "c1", name: "weather", arguments: { city: 42 } });
 * if (!checked.ok) console.log(checked.error.message);
 * // Invalid arguments for tool "weather": city: Invalid input: expected string, received number
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
  // A settled result has its own `ok`; only a promise lacks one. Reading it costs a fraction of a
  // thenable check's prototype walk, on every call.
  if ((validation as Partial<Validation>).ok !== undefined) return checked(validation as Validation, call);
  return (validation as Promise<Validation>).then((v) => checked(v, call));
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
