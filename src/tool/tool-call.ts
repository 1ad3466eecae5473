import { describe, isPlainRecord } from "../util/safe.js";
import { isProviderState, type ProviderState } from "./provider-state.js";

/** One tool call a model asked for. */
export interface ToolCall {
  /** The provider's id, echoed back as the tool message's `toolCallId`. */
  id: string;
  name: string;
  /** The parsed arguments object. */
  arguments: Record<string, unknown>;
  /** The provider's JSON text, when there was one; text that is not valid JSON fails the call. */
  rawArguments?: string;
  metadata?: Record<string, unknown>;
  /**
   * The provider's state on the call (a Gemini `thoughtSignature`, an OpenAI Responses
   * `function_call` item's id), kept as it came: the provider's converter sends it back with the
   * call on the next request, and another provider's drops it.
   */
  providerState?: ProviderState;
}

/**
 * A call as the runner answers it: its id and name are read once, when it starts, so a handler
 * that rewrites `ctx.toolCall` cannot change which call its events and message answer.
 */
export interface CallIdentity {
  /** The caller's own call object, as the policy receives it. */
  readonly call: ToolCall;
  /** Position in the input (arrival order for streamed calls). */
  readonly index: number;
  readonly toolCallId: string;
  readonly toolName: string;
}

/**
 * Reject a call a runner cannot answer: without an id there is no message to send back, and
 * without an object of arguments there is nothing to validate. The message names the call's
 * index so the bad one can be found in a large batch.
 */
export function assertToolCall(call: unknown, index: number): asserts call is ToolCall {
  if (isWellFormed(call)) return;
  rejectCall(call, index);
}

/**
 * The checks of {@link assertToolCall}, with nothing built: this runs on every call, and naming
 * the call (a string made from its index, for the message) cost more than the checks themselves.
 */
function isWellFormed(call: unknown): boolean {
  if (typeof call !== "object" || call === null || Array.isArray(call)) return false;
  const c = call as Record<string, unknown>;
  // In the order of the messages, stopping at the first wrong field, as the messages do.
  const id = c.id;
  if (typeof id !== "string" || id === "") return false;
  const name = c.name;
  if (typeof name !== "string" || name === "") return false;
  if (!isPlainRecord(c.arguments)) return false;
  const raw = c.rawArguments;
  if (raw !== undefined && typeof raw !== "string") return false;
  const metadata = c.metadata;
  if (metadata !== undefined && !isPlainRecord(metadata)) return false;
  const state = c.providerState;
  return state === undefined || isProviderState(state);
}

/** Throw the TypeError that says what is wrong with a call that failed {@link isWellFormed}. */
function rejectCall(call: unknown, index: number): never {
  const where = `tool call at index ${index}`;
  if (typeof call !== "object" || call === null || Array.isArray(call)) {
    throw new TypeError(`Expected ${where} to be an object, got ${describe(call)}`);
  }
  const c = call as Record<string, unknown>;
  if (typeof c.id !== "string" || c.id === "") {
    rejectProviderShape(c, where);
    throw new TypeError(`Expected \`id\` of ${where} to be a non-empty string, got ${describe(c.id)}`);
  }
  if (typeof c.name !== "string" || c.name === "") {
    rejectProviderShape(c, where);
    throw new TypeError(`Expected \`name\` of ${where} to be a non-empty string, got ${describe(c.name)}`);
  }
  if (!isPlainRecord(c.arguments)) {
    rejectProviderShape(c, where);
    throw new TypeError(`Expected \`arguments\` of ${where} to be an object, got ${describe(c.arguments)}`);
  }
  if (c.rawArguments !== undefined && typeof c.rawArguments !== "string") {
    throw new TypeError(`Expected \`rawArguments\` of ${where} to be a string, got ${describe(c.rawArguments)}`);
  }
  if (c.metadata !== undefined && !isPlainRecord(c.metadata)) {
    throw new TypeError(`Expected \`metadata\` of ${where} to be an object, got ${describe(c.metadata)}`);
  }
  if (c.providerState !== undefined && !isProviderState(c.providerState)) {
    throw new TypeError(`Expected \`providerState\` of ${where} to be { provider: string, data: object }, got ${describe(c.providerState)}`);
  }
  // Getters that answered differently the second time: the call cannot be trusted either way.
  throw new TypeError(`Expected ${where} to keep its fields while it is read, got one whose fields change`);
}

/**
 * A provider's own tool-call object passed in place of a ToolCall (the usual first mistake):
 * say which parser of `toolrx/providers` turns it into one. Only reached for a call that is
 * already invalid, so valid calls pay nothing for it.
 */
function rejectProviderShape(c: Record<string, unknown>, where: string): void {
  const provider = providerShape(c);
  if (provider === undefined) return;
  throw new TypeError(
    `Expected ${where} to be a toolrx ToolCall { id, name, arguments }, got ${provider.what}: convert it with ${provider.parser} from "toolrx/providers"`,
  );
}

/** Which provider's tool-call shape `c` is, and the parser that turns it into ToolCalls. */
function providerShape(c: Record<string, unknown>): { what: string; parser: string } | undefined {
  if (c.type === "function" && isPlainRecord(c.function)) {
    return { what: "an OpenAI Chat Completions tool call", parser: "openai.parseToolCalls(message) on the assistant message" };
  }
  if (c.type === "tool_use" && "input" in c) {
    return { what: "an Anthropic tool_use block", parser: "anthropic.parseToolCalls(message) on the assistant message" };
  }
  if (c.type === "function_call" && typeof c.call_id === "string") {
    return { what: "an OpenAI Responses function_call item", parser: "openai.parseResponseOutput(response.output)" };
  }
  return undefined;
}
