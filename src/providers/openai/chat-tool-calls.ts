import { parseArgumentsText } from "../parse-arguments.js";
import { isRecord, kindOf, providerShape } from "../shape.js";
import type { ToolCall } from "../../index.js";

/** A Chat Completions function tool call, as in `message.tool_calls`. */
export interface ChatToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** The parts of a Chat Completions assistant message that carry text and tool calls. */
export interface ChatAssistantMessage {
  role?: string;
  content?: string | null;
  tool_calls?: readonly (ChatToolCall | { type: string })[] | null;
}

/** The parts of a whole Chat Completions response the parser reads: its first choice's message. */
export interface ChatCompletionLike {
  choices: readonly { message: ChatAssistantMessage }[];
}

/**
 * Chat Completions: the tool calls of an assistant message, or of a whole completion (its first
 * choice). Arguments that are not a JSON object never throw and never drop the call: it keeps
 * `rawArguments`, and running it answers the model that its arguments were not valid JSON.
 *
 * @throws {TypeError} for anything else, saying what to pass (a `tool_calls` array, a Responses
 * response or an Anthropic message are recognised), rather than finding no calls in it.
 *
 * @example
 * openai.parseToolCalls(completion); // or completion.choices[0].message
 * // [{ id: "call_1", name: "weather", arguments: { city: "Paris" }, rawArguments: '{"city":"Paris"}' }]
 */
export function parseToolCalls(response: ChatCompletionLike | ChatAssistantMessage): ToolCall[] {
  const message = chatMessageOf(response, "openai.parseToolCalls");
  if (message === undefined) return [];
  const calls: ToolCall[] = [];
  for (const item of message.tool_calls ?? []) {
    if (item.type !== "function") continue;
    const { id, function: fn } = item as ChatToolCall;
    calls.push({ id, name: fn.name, ...parseArgumentsText(fn.arguments) });
  }
  return calls;
}

/** The assistant message of a completion or the message itself; `undefined` for a completion without choices. */
export function chatMessageOf(response: unknown, fn: string): ChatAssistantMessage | undefined {
  const expected = `Expected \`${fn}\` to get a chat completion or its assistant message (\`completion.choices[0].message\`)`;
  if (Array.isArray(response)) throw new TypeError(`${expected}, got an array: pass the message, not its \`tool_calls\``);
  if (!isRecord(response)) throw new TypeError(`${expected}, got ${kindOf(response)}`);
  const shape = providerShape(response);
  if (shape === "chat") {
    const first: unknown = (response.choices as unknown[])[0];
    if (first === undefined) return undefined;
    if (!isRecord(first) || !isRecord(first.message)) throw new TypeError(`${expected}, got a completion whose first choice has no message`);
    return first.message as ChatAssistantMessage;
  }
  if (shape === "responses") throw new TypeError(`${expected}, got a Responses API response: use \`openai.parseResponseOutput(response)\``);
  if (shape === "anthropic") throw new TypeError(`${expected}, got an Anthropic message: use \`anthropic.parseToolCalls(message)\``);
  if (!("tool_calls" in response || "role" in response || "content" in response)) {
    throw new TypeError(`${expected}, got an object with none of \`choices\`, \`role\`, \`content\`, \`tool_calls\``);
  }
  if (response.tool_calls != null && !Array.isArray(response.tool_calls)) {
    throw new TypeError(`${expected}, got a message whose \`tool_calls\` is ${kindOf(response.tool_calls)}`);
  }
  return response as ChatAssistantMessage;
}
