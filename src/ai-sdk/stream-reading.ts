import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import type { FinishReason, ModelEvent, TokenUsage } from "../index.js";
import { argumentsOf } from "../ui-protocol/index.js";

/** The provider name of the state an AI SDK model gave: `toPrompt` sends back these alone. */
const AI_SDK = "ai-sdk";

/**
 * One `doStream` stream of `aiSdkModel`, read part by part into model events: the calls it is
 * writing, the provider metadata of its open text, reasoning and call parts, and the usage and
 * response it reported.
 */
export class StreamReading {
  finished = false;
  #calls = 0;
  /** Reasoning parts open, by id: their text so far and the provider metadata they came with. */
  readonly #reasoning = new Map<string, { text: string; metadata: Record<string, unknown> | undefined }>();
  /** Text parts open, by id: the provider metadata they came with so far. */
  readonly #text = new Map<string, Metadata | undefined>();
  /** The provider metadata of calls whose input is streaming, by id. */
  readonly #inputs = new Map<string, Metadata>();
  #responseId: string | undefined;
  #responseModel: string | undefined;

  read(part: LanguageModelV3StreamPart): ModelEvent[] {
    switch (part.type) {
      case "text-start":
        this.#text.set(part.id, part.providerMetadata);
        return [];
      case "text-delta":
        this.#text.set(part.id, merged(this.#text.get(part.id), part.providerMetadata));
        return part.delta === "" ? [] : [{ type: "text_delta", text: part.delta }];
      case "text-end": {
        // The block's state (Gemini's signature, OpenAI's item id) goes back with its text.
        const data = merged(this.#text.get(part.id), part.providerMetadata);
        this.#text.delete(part.id);
        return data === undefined ? [] : [{ type: "text_state", provider: AI_SDK, data }];
      }
      case "reasoning-start":
        this.#reasoning.set(part.id, { text: "", metadata: part.providerMetadata });
        return [];
      case "reasoning-delta": {
        const open = this.#reasoning.get(part.id);
        if (open !== undefined) {
          open.text += part.delta;
          open.metadata = merged(open.metadata, part.providerMetadata);
        }
        return part.delta === "" ? [] : [{ type: "reasoning_delta", text: part.delta }];
      }
      case "reasoning-end": {
        const open = this.#reasoning.get(part.id) ?? { text: "", metadata: undefined };
        this.#reasoning.delete(part.id);
        const data = merged(open.metadata, part.providerMetadata);
        return [{ type: "reasoning", part: data === undefined ? { text: open.text, provider: AI_SDK } : { text: open.text, provider: AI_SDK, data } }];
      }
      case "tool-input-start":
        if (part.providerMetadata !== undefined) this.#inputs.set(part.id, part.providerMetadata);
        return part.providerExecuted === true ? [] : [{ type: "tool_input_started", id: part.id, name: part.toolName }];
      case "tool-input-delta":
        return [{ type: "tool_input_delta", id: part.id, delta: part.delta }];
      case "tool-call": {
        if (part.providerExecuted === true) return [];
        this.#calls++;
        const data = merged(this.#inputs.get(part.toolCallId), part.providerMetadata);
        this.#inputs.delete(part.toolCallId);
        const call = { id: part.toolCallId, name: part.toolName, arguments: argumentsOf(part.input), rawArguments: part.input };
        return [{ type: "tool_call", call: data === undefined ? call : { ...call, providerState: { provider: AI_SDK, data } } }];
      }
      case "response-metadata":
        this.#responseId = part.id ?? this.#responseId;
        this.#responseModel = part.modelId ?? this.#responseModel;
        return [];
      case "finish": {
        this.finished = true;
        const usage = usageOf(part.usage);
        const events: ModelEvent[] = [];
        if (usage !== undefined) {
          events.push({
            type: "usage",
            usage,
            ...(this.#responseId === undefined ? {} : { responseId: this.#responseId }),
            ...(this.#responseModel === undefined ? {} : { responseModel: this.#responseModel }),
          });
        }
        const reason = this.#reasonOf(part.finishReason.unified);
        events.push(
          reason === "error"
            ? { type: "finish", reason, error: new Error(`The model finished with "${part.finishReason.raw ?? "error"}"`) }
            : { type: "finish", reason },
        );
        return events;
      }
      case "error":
        this.finished = true;
        return [{ type: "finish", reason: "error", error: part.error }];
      default:
        return [];
    }
  }

  /** The stream ended without a `finish` part: the provider's connection was cut. */
  end(): ModelEvent[] {
    return [{ type: "finish", reason: "error", error: new Error("The model's stream ended without a finish part") }];
  }

  #reasonOf(unified: string): FinishReason {
    switch (unified) {
      case "stop":
        return "stop";
      case "length":
        return "length";
      case "content-filter":
        return "content_filter";
      case "tool-calls":
        return "tool_calls";
      case "other":
        return this.#calls > 0 ? "tool_calls" : "stop";
      default:
        return "error";
    }
  }
}

/** A part's provider metadata, by provider (`{ google: { thoughtSignature } }`). */
type Metadata = Record<string, unknown>;

/**
 * What a part said so far, with what it says now over it, provider by provider (a signature on a
 * block's last delta joins the item id its start gave); undefined when neither said anything.
 */
function merged(before: Metadata | undefined, now: Metadata | undefined): Metadata | undefined {
  if (now === undefined) return before;
  if (before === undefined) return now;
  const out: Metadata = { ...before };
  for (const [key, value] of Object.entries(now)) {
    const was = out[key];
    out[key] = isRecord(was) && isRecord(value) ? { ...was, ...value } : value;
  }
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function usageOf(
  usage: LanguageModelV3StreamPart extends infer P ? (P extends { type: "finish"; usage: infer U } ? U : never) : never,
): TokenUsage | undefined {
  const input = usage?.inputTokens?.total;
  const output = usage?.outputTokens?.total;
  if (typeof input !== "number" || typeof output !== "number") return undefined;
  const cached = usage.inputTokens.cacheRead;
  const reasoning = usage.outputTokens.reasoning;
  return {
    inputTokens: input,
    outputTokens: output,
    ...(typeof cached === "number" ? { cachedInputTokens: cached } : {}),
    ...(typeof reasoning === "number" ? { reasoningTokens: reasoning } : {}),
  };
}
