import { isRecord, kindOf } from "./shape.js";
import { checkParts, type Message, type ToolCall } from "../index.js";

const ROLES = new Set(["system", "user", "assistant", "tool", "approval"]);

/**
 * The conversation a converter reads, checked as it goes: a message a provider could not take
 * fails here, naming its index, instead of as a 400 from the provider.
 */
export function* messageList(messages: readonly Message[], fn: string): Generator<Exclude<Message, { role: "approval" }>> {
  if (!Array.isArray(messages)) throw new TypeError(`Expected \`messages\` of \`${fn}\` to be an array of messages, got ${kindOf(messages)}`);
  for (let index = 0; index < messages.length; index++) {
    const message: unknown = messages[index];
    if (!isRecord(message) || typeof message.role !== "string" || !ROLES.has(message.role)) {
      throw new TypeError(
        `Expected message ${index} of \`${fn}\` to have a \`role\` of "system", "user", "assistant", "tool" or "approval", got ${isRecord(message) ? JSON.stringify(message.role) : kindOf(message)}`,
      );
    }
    // Approvals are the host's record of a decision; no provider has a place for them.
    if (message.role === "approval") continue;
    if (typeof message.content !== "string") {
      throw new TypeError(`Expected \`content\` of message ${index} (${message.role}) of \`${fn}\` to be a string, got ${kindOf(message.content)}`);
    }
    if (message.parts !== undefined) {
      if (message.role !== "user" && message.role !== "tool") {
        throw new TypeError(`Expected message ${index} (${message.role}) of \`${fn}\` to have no \`parts\`: only user and tool messages carry content parts`);
      }
      checkParts(message.parts, `message ${index} (${message.role}) of \`${fn}\``);
    }
    yield message as unknown as Exclude<Message, { role: "approval" }>;
  }
}

/** A call's arguments as the provider's JSON text: what the model sent when there was text. */
export function argumentsText(call: ToolCall): string {
  return call.rawArguments !== undefined && call.rawArguments.trim() !== "" ? call.rawArguments : JSON.stringify(call.arguments);
}
