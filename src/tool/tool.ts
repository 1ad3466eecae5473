import type { ApprovalContext, NeedsApproval } from "./approval/needs-approval.js";
import type { HandlerContext } from "./handler-context.js";
import type { HandlerResult } from "./results.js";
import { checkToolControl, type ToolControl } from "./tool-control.js";
import { compileSchema, type CompiledSchema, type InferArguments, type JsonSchema, type ToolSchema } from "../schema/tool-schema.js";
import { describe } from "./tool-error.js";
import { assertKnownKeys, knownKeys, type KnownKeys } from "../util/known-keys.js";
import { checkHooks, type CallHook } from "./call-hook.js";
import { isPlainRecord } from "../util/safe.js";

/** What a handler may return: one of the result shapes, sync or as a Promise. */
export type HandlerReturn = HandlerResult | PromiseLike<HandlerResult>;

/**
 * A tool the model may call: serializable data plus an optional handler. A tool without a
 * handler is a declaration (for manual use or a resolver); running it answers `not_found`.
 */
export interface Tool<Args = Record<string, unknown>> {
  readonly name: string;
  readonly description: string;
  readonly schema: ToolSchema;
  readonly manual: boolean;
  readonly metadata: Record<string, unknown>;
  /** Per-tool limit, idempotency and retries; see {@link ToolControl}. */
  readonly control?: ToolControl;
  /** Called with the validated arguments (schema output) and the call's context. */
  handler?(args: Args, ctx: HandlerContext): HandlerReturn;
  /** Whether the agent loop must ask the host before running a call (never part of the JSON). */
  readonly needsApproval?: NeedsApproval<Args>;
  /** Guardrails around this tool's calls, inside the run's own; see {@link CallHook}. */
  readonly hooks?: readonly CallHook<Args>[];
}

/** What `JSON.stringify(tool)` gives: the tool without its handler, schema as JSON Schema. */
export interface ToolJSON {
  name: string;
  description: string;
  schema: JsonSchema;
  manual: boolean;
  metadata: Record<string, unknown>;
}

/** The argument of {@link defineTool}. */
export interface ToolDefinition<S extends ToolSchema> {
  /** Non-empty; what the model calls the tool by. */
  name: string;
  /** Shown to the model; `""` is allowed. */
  description: string;
  /** A zod v4 schema, a Standard Schema with Standard JSON Schema (ArkType, Valibot's wrapper), or a JSON Schema object literal. */
  schema: S;
  /** At most two parameters: `(args, ctx)`. */
  handler?: (args: InferArguments<S>, ctx: HandlerContext) => HandlerReturn;
  /** A manual tool is one the host answers itself; default `false`. */
  manual?: boolean;
  /** Free-form data for the host; default `{}`. */
  metadata?: Record<string, unknown>;
  /** Per-tool limit, idempotency and retries; default none. */
  control?: ToolControl;
  /**
   * The agent loop halts with `approval_required` instead of running a call that needs approval:
   * `true`, or a function of the validated arguments. Default: no approval.
   */
  needsApproval?: boolean | ((args: InferArguments<S>, ctx: ApprovalContext) => boolean | PromiseLike<boolean>);
  /** Guardrails around this tool's calls (`before`, `after`), inside the run's `hooks`; default none. */
  hooks?: readonly CallHook<InferArguments<S>>[];
}

/**
 * Every key of {@link ToolDefinition}: the compiler fails here when one is added to the interface
 * and not to this list, which is what `defineTool`'s unknown-key check reads.
 */
const DEFINITION_KEYS: Record<keyof ToolDefinition<ToolSchema>, true> = {
  name: true,
  description: true,
  schema: true,
  handler: true,
  manual: true,
  metadata: true,
  control: true,
  needsApproval: true,
  hooks: true,
};

/** The keys a tool definition may have, and where names from elsewhere (other SDKs, run options) point. */
const TOOL_DEFINITION_KEYS: KnownKeys = /* @__PURE__ */ knownKeys(DEFINITION_KEYS, {
  execute: "handler",
  run: "handler",
  parameters: "schema",
  inputSchema: "schema",
  timeout: "control.timeout",
  toolTimeout: "control.timeout",
  idleTimeout: "control.idleTimeout",
  toolIdleTimeout: "control.idleTimeout",
  concurrency: "control.concurrency",
  maxConcurrency: "control.concurrency",
  idempotent: "control.idempotent",
  retry: "control.retry",
});

/** The tool names both OpenAI and Anthropic accept; a provider refuses the whole request otherwise. */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

const compiled = new WeakMap<object, CompiledSchema>();
/** Where a tool made by this package keeps its prepared schema: a property read is cheaper per call than a WeakMap lookup. */
const COMPILED = /* @__PURE__ */ Symbol("toolrx.compiledSchema");

/**
 * Define a tool. Checks every field up front and prepares the schema once, so a bad definition
 * fails where it is written, not when a model first calls it.
 *
 * @throws {TypeError} when a key is not one of {@link ToolDefinition}'s (at the top level or in
 * `control`), when `name`, `description` or `schema` is missing or mistyped, when `name`
 * is not one providers accept (`^[a-zA-Z0-9_-]{1,64}$`), when
 * `manual` is not a boolean, when `handler` is not a function of at most 2 parameters, or when
 * the schema cannot describe an object of arguments.
 *
 * @example
 * const weather = defineTool({
 *   name: "weather",
 *   description: "Weather by city",
 *   schema: z.object({ city: z.string() }),
 *   handler: async ({ city }) => ok({ city, tempC: 21 }), // city: string
 * });
 * JSON.stringify(weather);
 * // {"name":"weather","description":"Weather by city","schema":{"type":"object",...},"manual":false,"metadata":{}}
 */
export function defineTool<const S extends ToolSchema>(definition: ToolDefinition<S>): Tool<InferArguments<S>> {
  if (!isPlainRecord(definition)) {
    throw new TypeError(`Expected a tool definition object, got ${describe(definition)}`);
  }
  const { name, description, schema, handler, manual = false, metadata = {}, needsApproval } = definition;
  if (typeof name !== "string" || name === "") {
    throw new TypeError(`Expected \`name\` to be a non-empty string, got ${describe(name)}`);
  }
  assertKnownKeys(definition, TOOL_DEFINITION_KEYS, { noun: "key", where: ` in tool "${name}"` });
  if (!TOOL_NAME.test(name)) {
    throw new TypeError(
      `Expected \`name\` to match ${TOOL_NAME} (letters, digits, _ and -, at most 64), as OpenAI and Anthropic require, got ${describe(name)}`,
    );
  }
  if (typeof description !== "string") {
    throw new TypeError(`Expected \`description\` of tool "${name}" to be a string, got ${describe(description)}`);
  }
  if (schema === undefined) throw new TypeError(`Expected \`schema\` of tool "${name}" to be given`);
  if (typeof manual !== "boolean") {
    throw new TypeError(`Expected \`manual\` of tool "${name}" to be a boolean, got ${describe(manual)}`);
  }
  if (handler !== undefined && typeof handler !== "function") {
    throw new TypeError(`Expected \`handler\` of tool "${name}" to be a function, got ${describe(handler)}`);
  }
  if (handler !== undefined && handler.length > 2) {
    throw new TypeError(`Expected \`handler\` of tool "${name}" to take at most 2 parameters (args, ctx), got ${handler.length}`);
  }
  if (needsApproval !== undefined && typeof needsApproval !== "boolean" && typeof needsApproval !== "function") {
    throw new TypeError(`Expected \`needsApproval\` of tool "${name}" to be a boolean or a function, got ${describe(needsApproval)}`);
  }
  if (!isPlainRecord(metadata)) {
    throw new TypeError(`Expected \`metadata\` of tool "${name}" to be an object, got ${describe(metadata)}`);
  }
  if (definition.control !== undefined) checkToolControl(definition.control, name);
  const hooks = checkHooks(definition.hooks, `hooks\` of tool "${name}`);
  const prepared = compileSchema(schema, name);
  const tool: Tool<InferArguments<S>> = { name, description, schema, manual, metadata };
  if (definition.control !== undefined) Object.defineProperty(tool, "control", { value: definition.control, enumerable: true });
  if (handler !== undefined) Object.defineProperty(tool, "handler", { value: handler, enumerable: true });
  if (needsApproval !== undefined) Object.defineProperty(tool, "needsApproval", { value: needsApproval, enumerable: true });
  if (hooks !== undefined) Object.defineProperty(tool, "hooks", { value: hooks, enumerable: true });
  Object.defineProperty(tool, "toJSON", { value: toolToJSON, enumerable: false });
  Object.defineProperty(tool, COMPILED, { value: prepared, enumerable: false });
  return Object.freeze(tool);
}

function toolToJSON(this: Tool): ToolJSON {
  const { name, description, manual, metadata } = this;
  return { name, description, schema: toolJsonSchema(this), manual, metadata };
}

/**
 * The prepared schema of a tool. Tools written as plain objects (not through `defineTool`) are
 * prepared on first use and cached, so the work happens once per tool, not per call.
 */
export function compiledSchemaOf(tool: Tool): CompiledSchema {
  let prepared = (tool as { [COMPILED]?: CompiledSchema })[COMPILED] ?? compiled.get(tool);
  if (prepared === undefined) {
    prepared = compileSchema(tool.schema, tool.name);
    compiled.set(tool, prepared);
  }
  return prepared;
}

/**
 * A copy of `tool` answered by `handler` instead of its own. The copy shares the original's
 * prepared schema, so deriving tools per batch costs no schema work.
 */
export function withHandler(tool: Tool, handler: (args: Record<string, unknown>, ctx: HandlerContext) => HandlerReturn): Tool {
  const { name, description, schema, manual = false, metadata = {} } = tool;
  const copy: Tool = { name, description, schema, manual, metadata, handler };
  if (tool.control !== undefined) Object.defineProperty(copy, "control", { value: tool.control, enumerable: true });
  if (tool.needsApproval !== undefined) Object.defineProperty(copy, "needsApproval", { value: tool.needsApproval, enumerable: true });
  if (tool.hooks !== undefined) Object.defineProperty(copy, "hooks", { value: tool.hooks, enumerable: true });
  Object.defineProperty(copy, "toJSON", { value: toolToJSON, enumerable: false });
  Object.defineProperty(copy, COMPILED, { value: compiledSchemaOf(tool), enumerable: false });
  return Object.freeze(copy);
}

/**
 * The JSON Schema of a tool's arguments, as a model provider wants it: zod schemas converted
 * (input side), JSON Schema objects as given.
 *
 * @example
 * toolJsonSchema(weather);
 * // { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false }
 */
export function toolJsonSchema(tool: Tool): JsonSchema {
  return compiledSchemaOf(tool).jsonSchema;
}
