import { assertToolCall } from "../../tool/tool-call.js";
import { describe } from "../../tool/tool-error.js";
import type { Message } from "../../tool/message.js";
import { assertStructure } from "./check-structure.js";
import { isPlainRecord } from "../../util/safe.js";
import { checkParts } from "../../tool/content-part.js";
import { isReasoningPart } from "../../tool/reasoning-part.js";
import { assertProviderItems } from "../../tool/provider-item.js";
import { assertTextState } from "../../tool/provider-state.js";

/**
 * Reject a conversation a provider could not take, naming the first bad field or misplaced
 * message, so a host's bug fails where the conversation is built, not as a provider's 400
 * several turns later.
 *
 * @throws {TypeError} like ``Expected `messages[2].content` to be a string, got 42``.
 */
export function assertMessages(messages: unknown): asserts messages is readonly Message[] {
  if (!Array.isArray(messages)) throw new TypeError(`Expected \`messages\` to be an array of messages, got ${describe(messages)}`);
  messages.forEach(assertMessage);
  assertStructure(messages as readonly Message[]);
}

function assertMessage(message: unknown, i: number): void {
  const at = `messages[${i}]`;
  if (!isPlainRecord(message)) throw new TypeError(`Expected \`${at}\` to be a message object, got ${describe(message)}`);
  const field = (key: string, ok: (value: unknown) => boolean, expected: string) => {
    if (!ok(message[key])) throw new TypeError(`Expected \`${at}.${key}\` to be ${expected}, got ${describe(message[key])}`);
  };
  switch (message.role) {
    case "system":
      field("content", isString, "a string");
      field("parts", (v) => v === undefined, "absent (a system message carries text only; put images and files in a user message)");
      return;
    case "user":
      field("content", isString, "a string");
      checkPartsOf(message, at);
      return;
    case "assistant": {
      field("content", isString, "a string");
      field("metadata", (v) => v === undefined || isPlainRecord(v), "an object");
      field("toolCalls", (v) => v === undefined || Array.isArray(v), "an array of tool calls");
      field("reasoning", (v) => v === undefined || (Array.isArray(v) && v.every(isReasoningPart)), "an array of { text, provider?, data? } reasoning parts");
      const calls = message.toolCalls as readonly unknown[] | undefined;
      calls?.forEach((call, j) => {
        try {
          assertToolCall(call, j);
        } catch (e) {
          throw new TypeError(`In \`${at}.toolCalls\`: ${(e as Error).message}`);
        }
      });
      assertProviderItems(message.providerItems, message.content as string, at);
      assertTextState(message.textState, message.content as string, at);
      return;
    }
    case "tool":
      field("toolCallId", isNonEmpty, "a non-empty string");
      field("name", isString, "a string");
      field("content", isString, "a string");
      field("isError", (v) => typeof v === "boolean", "a boolean");
      checkPartsOf(message, at);
      return;
    case "approval":
      field("toolCallId", isNonEmpty, "a non-empty string");
      field("approved", (v) => typeof v === "boolean", "a boolean");
      field("reason", (v) => v === undefined || isString(v), "a string");
      field("token", (v) => v === undefined || isString(v), "a string");
      field("arguments", (v) => v === undefined || isPlainRecord(v), "an object of arguments");
      return;
    default:
      throw new TypeError(`Expected \`${at}.role\` to be "system", "user", "assistant", "tool" or "approval", got ${describe(message.role)}`);
  }
}

/** A message's content parts, when it has any: each checked as `ok(value, { parts })` checks them. */
function checkPartsOf(message: Record<string, unknown>, at: string): void {
  if (message.parts !== undefined) checkParts(message.parts, `\`${at}\``);
}

const isString = (value: unknown): value is string => typeof value === "string";
const isNonEmpty = (value: unknown): boolean => typeof value === "string" && value !== "";
