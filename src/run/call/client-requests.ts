import { compileSchema } from "../../schema/compile-schema.js";
import type { JsonSchema, ToolSchema } from "../../schema/types.js";
import type { ClientChannel } from "../../tool/client-channel.js";
import { ClientRequestError } from "../../tool/client-request-error.js";
import type { HandlerContext } from "../../tool/handler-context.js";
import type { SampleReply, SampleRequest } from "../../tool/sampling.js";
import { type UserAnswer, UserInputRequired } from "../../tool/user-form.js";
import { describe, isPlainRecord } from "../../util/safe.js";

/** The property types MCP form elicitation allows (an array only as a multi-select of enums). */
const FIELD_TYPES: ReadonlySet<unknown> = new Set(["string", "number", "integer", "boolean", "array"]);

/**
 * `ctx.askUser`: the form checked, put to the run's client, and its answer checked against the
 * schema (defaults applied). Without a client that can answer during the call, a
 * `UserInputRequired`, which the default executor makes the call's `ask_user` result.
 */
export async function askUserInCall(
  ctx: HandlerContext,
  channel: ClientChannel | undefined,
  question: string,
  schema: ToolSchema,
): Promise<UserAnswer<Record<string, unknown>>> {
  if (typeof question !== "string" || question === "") {
    throw new TypeError(`Expected the question of \`ctx.askUser\` to be a non-empty string, got ${describe(question)}`);
  }
  const compiled = compileSchema(schema, ctx.toolCall.name);
  const form = { question, schema: checkForm(compiled.jsonSchema, ctx.toolCall.name) };
  if (channel?.askUser === undefined) throw new UserInputRequired(form);
  const signal = ctx.signal;
  signal.throwIfAborted();
  const answer = await channel.askUser(form, signal);
  const action = isPlainRecord(answer) ? answer.action : undefined;
  if (action === "decline" || action === "cancel") return { action };
  if (action !== "accept") {
    throw new ClientRequestError("ask_user", "invalid_answer", { detail: `the client answered ${shown(answer)}, not accept, decline or cancel` });
  }
  const content = (answer as Record<string, unknown>).content ?? {};
  if (!isPlainRecord(content)) {
    throw new ClientRequestError("ask_user", "invalid_answer", { detail: `the accepted form's content is ${describe(content)}, not an object` });
  }
  const checked = await compiled.validate(content);
  if (!checked.ok) throw new ClientRequestError("ask_user", "invalid_answer", { issues: checked.issues });
  return { action: "accept", content: checked.value };
}

/**
 * A form MCP clients can show: an object whose properties are primitives or enums (nested
 * objects have no form field). Fails closed, where the handler asks, rather than at a client
 * that would refuse it or drop the field.
 */
function checkForm(schema: JsonSchema, toolName: string): JsonSchema {
  const properties = schema.properties;
  const bad = isPlainRecord(properties)
    ? Object.entries(properties).find(([, field]) => !isPlainRecord(field) || !FIELD_TYPES.has(field.type))
    : ["(properties)", properties];
  if (bad !== undefined) {
    throw new TypeError(
      `Expected the form of \`ctx.askUser\` in tool ${toolName} to be an object of string, number, integer, boolean or enum fields, got ${bad[0]}: ${describe(bad[1])}`,
    );
  }
  return schema;
}

/** `ctx.sample`: the request checked, put to the run's client, and its reply read as text. */
export async function sampleInCall(ctx: HandlerContext, channel: ClientChannel | undefined, request: SampleRequest): Promise<SampleReply> {
  checkSampleRequest(request);
  if (channel?.sample === undefined) throw new ClientRequestError("sample", "no_client");
  const signal = ctx.signal;
  signal.throwIfAborted();
  return replyOf(await channel.sample(request, signal));
}

function checkSampleRequest(request: SampleRequest): void {
  if (!isPlainRecord(request)) throw new TypeError(`Expected \`ctx.sample\` to get { messages, maxTokens }, got ${describe(request)}`);
  const { messages, maxTokens } = request;
  if (!Array.isArray(messages) || messages.length === 0) {
    throw new TypeError(`Expected \`messages\` of \`ctx.sample\` to be a non-empty array, got ${describe(messages)}`);
  }
  const wrong = messages.findIndex((m) => !isPlainRecord(m) || (m.role !== "user" && m.role !== "assistant") || typeof m.content !== "string");
  if (wrong >= 0) {
    throw new TypeError(
      `Expected \`messages[${wrong}]\` of \`ctx.sample\` to be { role: "user" | "assistant", content: string }, got ${describe(messages[wrong])}`,
    );
  }
  if (!Number.isInteger(maxTokens) || maxTokens < 1) {
    throw new TypeError(`Expected \`maxTokens\` of \`ctx.sample\` to be a positive integer, got ${describe(maxTokens)}`);
  }
}

/** MCP's `CreateMessageResult` as a {@link SampleReply}: one content block or (2025-11-25) several. */
function replyOf(result: unknown): SampleReply {
  const r = isPlainRecord(result) ? result : {};
  const blocks = Array.isArray(r.content) ? r.content : [r.content];
  const texts = blocks.filter((b) => isPlainRecord(b) && b.type === "text" && typeof b.text === "string").map((b) => (b as { text: string }).text);
  if (texts.length === 0 || typeof r.model !== "string") {
    throw new ClientRequestError("sample", "invalid_answer", { detail: `the client's reply has no text or no model: ${shown(result)}` });
  }
  const reply: { text: string; model: string; stopReason?: string } = { text: texts.join("\n\n"), model: r.model };
  if (typeof r.stopReason === "string") reply.stopReason = r.stopReason;
  return reply;
}

/** A client's answer in an error message, cut short: it came from outside. */
function shown(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    // a value JSON cannot write is described instead
  }
  if (text === undefined) return describe(value);
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}
