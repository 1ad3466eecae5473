import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3StreamPart, LanguageModelV4 } from "@ai-sdk/provider";
import { Observable } from "rxjs";
import { toolJsonSchema, type Model, type ModelEvent } from "../index.js";
import { StreamReading } from "./stream-reading.js";
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
 * OpenAI's item id and encrypted content, Gemini's `thoughtSignature`). Text parts and tool calls
 * keep theirs the same way (a `text_state` per text part that has some, a call's
 * `providerState`): the next request sends each back as its part's `providerOptions`, which is
 * where the AI SDK's providers look for it (`@ai-sdk/google` would otherwise replay a Gemini 3
 * function call with a placeholder signature).
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
