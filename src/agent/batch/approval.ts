import { deniedText } from "../../tool/approval/approval-rule.js";
import type { ToolResultEncoder } from "../../tool/encoder.js";
import type { ToolMessage } from "../../tool/message.js";
import type { ToolCall } from "../../tool/tool-call.js";

export { approvalNeeded } from "../../tool/approval/approval-rule.js";

/** The tool message that answers a denied call: an error text the model can read and act on. */
export function deniedMessage(call: ToolCall, reason: string | undefined, encoder: ToolResultEncoder): ToolMessage {
  return notRunMessage(call, deniedText(call, reason), encoder);
}

/** The tool message that answers a call beyond `maxCallsPerTurn`. */
export function overLimitMessage(call: ToolCall, limit: number, encoder: ToolResultEncoder): ToolMessage {
  const text = `Not run: this turn asked for more than ${limit} tool call${limit === 1 ? "" : "s"}, the limit per turn. Call ${call.name} again in a later turn if you still need it.`;
  return notRunMessage(call, text, encoder);
}

/** A call the loop answers without running it: `text` as an error, through the run's encoder when it can. */
function notRunMessage(call: ToolCall, text: string, encoder: ToolResultEncoder): ToolMessage {
  let content: unknown;
  try {
    content = encoder.encodeError(text);
  } catch {
    // `content` stays undefined: the fallback below answers.
  }
  return {
    role: "tool",
    toolCallId: call.id,
    name: call.name,
    content: typeof content === "string" ? content : JSON.stringify({ error: text }),
    isError: true,
  };
}
