import type { StreamReader } from "../model-stream.js";
import { parseArgumentsText } from "../parse-arguments.js";
import { ANTHROPIC } from "./thinking.js";
import { TruncatedStreamError } from "../truncated-stream-error.js";
import { AnthropicUsage } from "./anthropic-usage.js";
import { toolUseCall } from "./parse-tool-calls.js";
import { isHostedBlock } from "./hosted-blocks.js";
import type { FinishReason, ModelEvent } from "../../index.js";

/** One Messages API stream event, the fields the model reads. */
export type MessageStreamEventLike =
  | { type: "content_block_start"; index: number; content_block: { type: string } }
  | { type: "content_block_delta"; index: number; delta: { type: string } }
  | { type: "content_block_stop"; index: number }
  | { type: "message_delta"; delta: { stop_reason: string | null } }
  | { type: string };

/** Anthropic stop reasons in §9's words. */
const FINISH: Readonly<Record<string, FinishReason>> = {
  end_turn: "stop",
  stop_sequence: "stop",
  pause_turn: "stop",
  tool_use: "tool_calls",
  max_tokens: "length",
  model_context_window_exceeded: "length",
  refusal: "content_filter",
};

interface PartialToolUse {
  id: string;
  name: string;
  input: unknown;
  json: string;
}

/** A block the provider runs itself, as it started, with the input JSON streamed into it so far. */
interface PartialHosted {
  block: Record<string, unknown>;
  json: string;
}

/** A Messages API stream read event by event: the model events each one completes, and the finish the stream owes at its end. */
export class MessageEventReader implements StreamReader<MessageStreamEventLike> {
  private readonly toolUses = new Map<number, PartialToolUse>();
  /** Thinking blocks open, by index: their text and signature so far. */
  private readonly thinking = new Map<number, { text: string; signature: string }>();
  private readonly hosted = new Map<number, PartialHosted>();
  private stopReason: string | null = null;
  private called = false;
  private stopped = false;
  private readonly usage = new AnthropicUsage();

  read(event: MessageStreamEventLike): ModelEvent[] {
    switch (event.type) {
      case "content_block_start": {
        const { index, content_block: block } = event as { index: number; content_block: { type: string; text?: string } };
        if (block.type === "tool_use") {
          const { id, name, input } = block as { type: "tool_use"; id: string; name: string; input: unknown };
          this.toolUses.set(index, { id, name, input, json: "" });
          return [{ type: "tool_input_started", id, name }];
        } else if (block.type === "text") {
          return block.text ? [{ type: "text_delta", text: block.text }] : [];
        } else if (block.type === "thinking") {
          const { thinking = "", signature = "" } = block as { thinking?: string; signature?: string };
          this.thinking.set(index, { text: thinking, signature });
          return thinking === "" ? [] : [{ type: "reasoning_delta", text: thinking }];
        } else if (block.type === "redacted_thinking") {
          const { data } = block as { data?: unknown };
          return [{ type: "reasoning", part: { text: "", provider: ANTHROPIC, data: { type: "redacted_thinking", data } } }];
        } else if (isHostedBlock(block.type)) {
          this.hosted.set(index, { block: { ...block }, json: "" });
          return [];
        }
        // A block toolrx cannot keep may be one the model waits on: fail rather than drop it.
        throw new TypeError(`Anthropic sent a ${JSON.stringify(block.type)} content block, which toolrx has no place for`);
      }
      case "content_block_delta": {
        const { index, delta } = event as {
          index: number;
          delta: { type: string; text?: string; partial_json?: string; thinking?: string; signature?: string };
        };
        if (delta.type === "text_delta" && delta.text) return [{ type: "text_delta", text: delta.text }];
        const thinking = this.thinking.get(index);
        if (thinking !== undefined) {
          if (delta.type === "signature_delta") thinking.signature += delta.signature ?? "";
          if (delta.type !== "thinking_delta" || !delta.thinking) return [];
          thinking.text += delta.thinking;
          return [{ type: "reasoning_delta", text: delta.thinking }];
        }
        const hosted = this.hosted.get(index);
        if (delta.type === "input_json_delta" && hosted !== undefined) hosted.json += delta.partial_json ?? "";
        const toolUse = this.toolUses.get(index);
        if (delta.type === "input_json_delta" && toolUse !== undefined && delta.partial_json) {
          toolUse.json += delta.partial_json;
          return [{ type: "tool_input_delta", id: toolUse.id, delta: delta.partial_json }];
        }
        return [];
      }
      case "content_block_stop": {
        const { index } = event as { index: number };
        const thinking = this.thinking.get(index);
        if (thinking !== undefined) {
          this.thinking.delete(index);
          return [{ type: "reasoning", part: { text: thinking.text, provider: ANTHROPIC, data: { type: "thinking", signature: thinking.signature } } }];
        }
        const hosted = this.hosted.get(index);
        if (hosted !== undefined) {
          this.hosted.delete(index);
          return [{ type: "provider_item", provider: "anthropic", item: hostedBlock(hosted) }];
        }
        const toolUse = this.toolUses.get(index);
        if (toolUse === undefined) return [];
        this.toolUses.delete(index);
        this.called = true;
        const { id, name, input, json } = toolUse;
        // No deltas: the input is the one the block started with (`{}` for a tool without parameters).
        const call = json.trim() === "" ? toolUseCall({ id, name, input }) : { id, name, ...parseArgumentsText(json) };
        return [{ type: "tool_call", call }];
      }
      case "message_start":
        this.usage.start((event as { message?: unknown }).message);
        return [];
      case "message_delta":
        this.stopReason = (event as { delta: { stop_reason: string | null } }).delta.stop_reason ?? this.stopReason;
        this.usage.delta((event as { usage?: unknown }).usage);
        return [];
      case "message_stop":
        this.stopped = true;
        return [...this.usage.events(), { type: "finish", reason: this.finishReason() }];
      default:
        return [];
    }
  }

  end(): ModelEvent[] {
    // Without `message_stop` the message was cut off; a tool_use block still open is dropped.
    return this.stopped ? [] : [{ type: "finish", reason: "error", error: new TruncatedStreamError("Anthropic Messages", "message_stop") }];
  }

  private finishReason(): FinishReason {
    const mapped = this.stopReason === null ? undefined : FINISH[this.stopReason];
    return mapped ?? (this.called ? "tool_calls" : "stop");
  }
}

/** The block as the provider will take it back: with its streamed input, when it streamed one. */
function hostedBlock({ block, json }: PartialHosted): Record<string, unknown> {
  if (json.trim() === "") return block;
  try {
    return { ...block, input: JSON.parse(json) as unknown };
  } catch {
    // The provider's own JSON, cut or malformed: it judges it when it gets it back.
    return { ...block, input: json };
  }
}
