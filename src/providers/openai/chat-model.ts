import type { FinishReason, Model, ModelEvent } from "../../agent/types.js";
import { streamModel, type StreamReader } from "../model-stream.js";
import { parseArgumentsText } from "../parse-arguments.js";
import { assertClient } from "../model-options.js";
import { toChatMessages, type ChatMessageParam } from "./chat-messages.js";
import { toTools, type ChatFunctionTool } from "./tools.js";

/** One streamed Chat Completions chunk, the fields the model reads. */
export interface ChatCompletionChunkLike {
  choices: readonly {
    index: number;
    delta: {
      content?: string | null;
      tool_calls?: readonly { index: number; id?: string; function?: { name?: string; arguments?: string } }[];
    };
    finish_reason: string | null;
  }[];
}

/** The request {@link chatModel} sends: your parameters, plus the conversation, tools and `stream: true`. */
export interface ChatStreamRequest {
  model: string;
  messages: ChatMessageParam[];
  tools?: ChatFunctionTool[];
  stream: true;
  [param: string]: unknown;
}

/** An OpenAI client, or anything with its `chat.completions.create` streaming call. */
export interface ChatCompletionsClient {
  chat: {
    completions: {
      create(body: ChatStreamRequest, options: { signal: AbortSignal }): PromiseLike<AsyncIterable<ChatCompletionChunkLike>>;
    };
  };
}

/** Options of {@link chatModel}: the client, the model, and any other request parameter, sent as given. */
export interface ChatModelOptions {
  client: ChatCompletionsClient;
  model: string;
  /** `temperature`, `tool_choice`, `parallel_tool_calls`…: sent with every request. */
  [param: string]: unknown;
}

/**
 * An OpenAI Chat Completions model for the agent loop: streams the conversation's next turn,
 * text as it comes, each tool call once its arguments are complete (argument deltas are put
 * together by `index`, so interleaved calls come out whole, in index order, when the choice
 * finishes), then `finish`. Arguments that are not valid JSON keep the call, with the text as
 * `rawArguments`, so the model is told and can retry.
 *
 * Unsubscribing, or aborting the request's `signal`, aborts the HTTP stream. A provider error
 * (an error status, an error in the stream) errors the Observable with the SDK's error, so
 * `retry` and `catchError` work on it; the loop ends with `error`.
 *
 * @example
 * import OpenAI from "openai";
 * const model = openai.chatModel({ client: new OpenAI(), model: "gpt-4.1", temperature: 0 });
 * await runAgent({ model, tools: [weather], messages: [{ role: "user", content: "Weather in Paris?" }] });
 */
export function chatModel(options: ChatModelOptions): Model {
  assertClient(options, "openai.chatModel", "an OpenAI client", ["chat", "completions", "create"]);
  const { client, model, ...params } = options;
  return (request) =>
    streamModel(
      request,
      (signal) => {
        const body: ChatStreamRequest = { ...params, ...request.options, model, messages: toChatMessages(request.messages), stream: true };
        if (request.tools.length > 0) body.tools = toTools(request.tools);
        return client.chat.completions.create(body, { signal });
      },
      () => new ChatChunkReader(),
    );
}

/** Chat Completions finish reasons in §9's words (`function_call` is the legacy name for tool calls). */
const FINISH: Readonly<Record<string, FinishReason>> = {
  stop: "stop",
  tool_calls: "tool_calls",
  function_call: "tool_calls",
  length: "length",
  content_filter: "content_filter",
};

interface PartialCall {
  id: string;
  name: string;
  text: string;
  /** Whether `tool_input_started` went out: once the id and name are known. */
  announced: boolean;
}

/** Reads the first choice (the loop asks for one); calls are held until the choice finishes. */
class ChatChunkReader implements StreamReader<ChatCompletionChunkLike> {
  private readonly calls = new Map<number, PartialCall>();
  private finish: string | undefined;

  read(chunk: ChatCompletionChunkLike): ModelEvent[] {
    // A usage-only chunk has no choices; the loop asks for one choice, index 0.
    const choice = chunk.choices?.find((c) => c.index === 0);
    if (choice === undefined) return [];
    const events: ModelEvent[] = [];
    const { content, tool_calls } = choice.delta;
    if (typeof content === "string" && content !== "") events.push({ type: "text_delta", text: content });
    for (const delta of tool_calls ?? []) {
      let call = this.calls.get(delta.index);
      if (call === undefined) this.calls.set(delta.index, (call = { id: "", name: "", text: "", announced: false }));
      if (delta.id) call.id = delta.id;
      // OpenAI names a call once; some compatible servers repeat the whole name on every delta.
      const name = delta.function?.name;
      if (name && name !== call.name) call.name += name;
      if (!call.announced && call.id !== "" && call.name !== "") {
        call.announced = true;
        events.push({ type: "tool_input_started", id: call.id, name: call.name });
        // Text that came before the call was named is told at once.
        if (call.text !== "") events.push({ type: "tool_input_delta", id: call.id, delta: call.text });
      }
      const args = delta.function?.arguments;
      if (args) {
        call.text += args;
        if (call.announced) events.push({ type: "tool_input_delta", id: call.id, delta: args });
      }
    }
    if (choice.finish_reason !== null && choice.finish_reason !== undefined && this.finish === undefined) {
      this.finish = choice.finish_reason;
      events.push(...this.flush());
    }
    return events;
  }

  end(): ModelEvent[] {
    // A stream cut off before its finish chunk still hands over the calls it started.
    return this.finish === undefined ? this.flush() : [];
  }

  private flush(): ModelEvent[] {
    const events: ModelEvent[] = [...this.calls.keys()]
      .sort((a, b) => a - b)
      .map((index) => {
        const { id, name, text } = this.calls.get(index) as PartialCall;
        return { type: "tool_call", call: { id, name, ...parseArgumentsText(text) } };
      });
    if (this.finish !== undefined) events.push({ type: "finish", reason: finishReason(this.finish, this.calls.size > 0) });
    this.calls.clear();
    return events;
  }
}

function finishReason(reason: string, calledTools: boolean): FinishReason {
  const mapped = FINISH[reason] ?? "stop";
  // Some OpenAI-compatible servers say `stop` after tool calls; the calls are what counts.
  return mapped === "stop" && calledTools ? "tool_calls" : mapped;
}
