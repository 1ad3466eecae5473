import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3StreamPart, LanguageModelV4 } from "@ai-sdk/provider";
import { Observable } from "rxjs";
import { toolJsonSchema, type FinishReason, type Model, type ModelEvent, type TokenUsage } from "../index.js";
import { toPrompt } from "./to-prompt.js";

/** Options of {@link aiSdkModel}. */
export interface AiSdkModelOptions {
  /**
   * Call options sent with every request (`temperature`, `maxOutputTokens`, `providerOptions`,
   * `headers`…); a turn plan's `modelOptions` go over them. `prompt`, `tools` and `abortSignal`
   * are toolrx's.
   */
  readonly callOptions?: Readonly<Record<string, unknown>>;
}

/** A language model of the AI SDK's provider specification, v3 or v4 (what `@ai-sdk/*` providers return). */
export type AiSdkLanguageModel = LanguageModelV3 | LanguageModelV4;

/**
 * Any AI SDK provider's language model as a toolrx {@link Model}: Google, Bedrock, Mistral,
 * Groq, Ollama and the rest run toolrx's loop unchanged. Each turn is one `doStream` call with the
 * conversation as the prompt and the tools as function tools; its stream becomes text deltas,
 * each call's input as it streams (`tool_input_started`, `tool_input_delta`), each complete call,
 * the usage (with the response's id and model) and the finish. A stream `error` part ends the
 * turn with `finish` `error` (the loop halts with `error`), as does a rejected `doStream`; the
 * run's signal is the request's `abortSignal`, and unsubscribing cancels the stream.
 *
 * Calls the provider ran itself (`providerExecuted`) are the provider's: they are not run again.
 * Reasoning streams as `reasoning_delta`s, and each reasoning part ends as a `reasoning` piece of
 * provider `"ai-sdk"` whose `data` is the part's `providerMetadata` (Anthropic's signature,
 * OpenAI's item id and encrypted content): the next request sends it back as the reasoning
 * part's `providerOptions`, which is where the AI SDK's providers look for it.
 *
 * @example
 * import { google } from "@ai-sdk/google";
 * const model = aiSdkModel(google("gemini-2.5-flash"), { callOptions: { temperature: 0 } });
 * await runAgent({ model, tools, messages });
 */
export function aiSdkModel(model: AiSdkLanguageModel, options: AiSdkModelOptions = {}): Model {
  if (model === null || typeof model !== "object" || typeof model.doStream !== "function") {
    throw new TypeError("Expected `model` of `aiSdkModel` to be an AI SDK language model (with `doStream`)");
  }
  if (model.specificationVersion !== "v3" && model.specificationVersion !== "v4") {
    throw new TypeError(
      `Expected \`model\` of \`aiSdkModel\` to implement the v3 or v4 specification, got ${String((model as { specificationVersion?: unknown }).specificationVersion)}`,
    );
  }
  if (options === null || typeof options !== "object") throw new TypeError("Expected `options` of `aiSdkModel` to be an object");
  const { callOptions = {} } = options;
  if (callOptions === null || typeof callOptions !== "object") throw new TypeError("Expected `callOptions` of `aiSdkModel` to be an object");
  return (request) =>
    new Observable<ModelEvent>((subscriber) => {
      const call = {
        ...callOptions,
        ...request.options,
        prompt: toPrompt(request.messages),
        tools: request.tools.map((tool) => ({
          type: "function" as const,
          name: tool.name,
          description: tool.description,
          inputSchema: toolJsonSchema(tool) as object,
        })),
        abortSignal: request.signal,
      } as LanguageModelV3CallOptions;
      let reader: ReadableStreamDefaultReader<LanguageModelV3StreamPart> | undefined;
      let over = false;
      const reading = new StreamReading();
      Promise.resolve()
        .then(() => (model as LanguageModelV3).doStream(call))
        .then(async ({ stream }) => {
          if (over) {
            await stream.cancel().catch(() => undefined);
            return;
          }
          reader = stream.getReader();
          for (;;) {
            const { done, value } = await reader.read();
            if (done || over) break;
            for (const event of reading.read(value)) subscriber.next(event);
            if (reading.finished) break;
          }
          if (!reading.finished) for (const event of reading.end()) subscriber.next(event);
          subscriber.complete();
        })
        .catch((e: unknown) => subscriber.error(e));
      return () => {
        over = true;
        reader?.cancel().catch(() => undefined);
      };
    });
}

/** The provider name of the reasoning an AI SDK model gave: `toPrompt` sends back these alone. */
const AI_SDK = "ai-sdk";

/** One stream's state: the calls it is writing, and the usage and response it reported. */
class StreamReading {
  finished = false;
  #calls = 0;
  /** Reasoning parts open, by id: their text so far and the provider metadata they came with. */
  readonly #reasoning = new Map<string, { text: string; metadata: Record<string, unknown> | undefined }>();
  #responseId: string | undefined;
  #responseModel: string | undefined;

  read(part: LanguageModelV3StreamPart): ModelEvent[] {
    switch (part.type) {
      case "text-delta":
        return part.delta === "" ? [] : [{ type: "text_delta", text: part.delta }];
      case "reasoning-start":
        this.#reasoning.set(part.id, { text: "", metadata: part.providerMetadata });
        return [];
      case "reasoning-delta": {
        const open = this.#reasoning.get(part.id);
        if (open !== undefined) {
          open.text += part.delta;
          if (part.providerMetadata !== undefined) open.metadata = { ...open.metadata, ...part.providerMetadata };
        }
        return part.delta === "" ? [] : [{ type: "reasoning_delta", text: part.delta }];
      }
      case "reasoning-end": {
        const open = this.#reasoning.get(part.id) ?? { text: "", metadata: undefined };
        this.#reasoning.delete(part.id);
        const data = part.providerMetadata === undefined ? open.metadata : { ...open.metadata, ...part.providerMetadata };
        return [{ type: "reasoning", part: data === undefined ? { text: open.text, provider: AI_SDK } : { text: open.text, provider: AI_SDK, data } }];
      }
      case "tool-input-start":
        return part.providerExecuted === true ? [] : [{ type: "tool_input_started", id: part.id, name: part.toolName }];
      case "tool-input-delta":
        return [{ type: "tool_input_delta", id: part.id, delta: part.delta }];
      case "tool-call": {
        if (part.providerExecuted === true) return [];
        this.#calls++;
        return [{ type: "tool_call", call: { id: part.toolCallId, name: part.toolName, arguments: argumentsOf(part.input), rawArguments: part.input } }];
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

function argumentsOf(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
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
