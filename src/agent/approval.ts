import { deniedText } from "../tool/approval/approval-rule.js";
import type { ToolResultEncoder } from "../tool/encoder.js";
import type { ToolMessage } from "../tool/message.js";
import type { ToolCall } from "../tool/tool-call.js";

export { approvalNeeded } from "../tool/approval/approval-rule.js";

/** The tool message that answers a denied call: an error text the model can read and act on. */
export function deniedMessage(call: ToolCall, reason: string | undefined, encoder: ToolResultEncoder): ToolMessage {
  const text = deniedText(call, reason);
  let content: unknown;
  try {
    content = encoder.encodeError(text);
  } catch {
    content = undefined;
  }
  return {
    role: "tool",
    toolCallId: call.id,
    name: call.name,
    content: typeof content === "string" ? content : JSON.stringify({ error: text }),
    isError: true,
  };
}
