/**
 * Adapters between toolrx and model providers' wire formats: parse tool calls out of a
 * response, turn a batch's messages into the provider's tool-result messages, and describe
 * tools in the provider's request format. Types are structural, so no SDK is needed at runtime.
 *
 * @example
 * import { openai } from "toolrx/providers";
 * const calls = openai.parseToolCalls(completion.choices[0].message);
 * const result = await runToolCalls(calls, tools);
 * messages.push(completion.choices[0].message, ...openai.toToolMessages(result));
 */
export * as openai from "./openai.js";
export * as anthropic from "./anthropic.js";
