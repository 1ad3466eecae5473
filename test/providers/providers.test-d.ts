import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { expectTypeOf, test } from "vitest";
import type { Model } from "../../src/agent/model/model.js";
import type { AssistantMessage, Message } from "../../src/tool/message.js";
import type { RunResult, Tool } from "../../src/index.js";
import { anthropic, checkConversation, openai, type ConversationIssue, type ConversationIssueCode } from "../../src/providers/index.js";
import type { ModelEvent, TokenUsage } from "../../src/index.js";

declare const result: RunResult;
declare const tools: Tool[];
declare const conversation: Message[];

test("openai Chat Completions: SDK responses go in, our output is assignable to the request params", () => {
  const message = {} as OpenAI.Chat.Completions.ChatCompletionMessage;
  openai.parseToolCalls(message);
  expectTypeOf(openai.toToolMessages(result)).toExtend<OpenAI.Chat.Completions.ChatCompletionToolMessageParam[]>();
  expectTypeOf(openai.toToolMessages(result)).toExtend<OpenAI.Chat.Completions.ChatCompletionMessageParam[]>();
  expectTypeOf(openai.toTools(tools)).toExtend<OpenAI.Chat.Completions.ChatCompletionTool[]>();
});

test("openai Responses: output items go in, function_call_output items come out", () => {
  const response = {} as OpenAI.Responses.Response;
  openai.parseResponseOutput(response.output);
  expectTypeOf(openai.toFunctionCallOutputs(result)).toExtend<OpenAI.Responses.ResponseInputItem.FunctionCallOutput[]>();
  expectTypeOf(openai.toFunctionCallOutputs(result)).toExtend<OpenAI.Responses.ResponseInput>();
  expectTypeOf(openai.toResponsesTools(tools)).toExtend<OpenAI.Responses.Tool[]>();
});

test("anthropic Messages: a Message goes in, a MessageParam and Tool[] come out", () => {
  const message = {} as Anthropic.Messages.Message;
  anthropic.parseToolCalls(message);
  anthropic.parseToolCalls({} as Anthropic.Messages.MessageParam);
  expectTypeOf(anthropic.toToolResultMessage(result)).toExtend<Anthropic.Messages.MessageParam>();
  expectTypeOf(anthropic.toTools(tools)).toExtend<Anthropic.Messages.Tool[]>();
});

test("parsers take the whole SDK response as well as the part users reach for", () => {
  openai.parseToolCalls({} as OpenAI.Chat.Completions.ChatCompletion);
  openai.parseResponseOutput({} as OpenAI.Responses.Response);
  anthropic.parseToolCalls(({} as Anthropic.Messages.Message).content);
  expectTypeOf(openai.fromChatMessage({} as OpenAI.Chat.Completions.ChatCompletion)).toEqualTypeOf<AssistantMessage>();
  expectTypeOf(openai.fromResponseOutput({} as OpenAI.Responses.Response)).toEqualTypeOf<AssistantMessage>();
  expectTypeOf(anthropic.fromMessage({} as Anthropic.Messages.Message)).toEqualTypeOf<AssistantMessage>();
});

test("model functions take the SDKs' own clients and give a Model", () => {
  expectTypeOf(openai.chatModel({ client: new OpenAI(), model: "gpt-4.1", temperature: 0 })).toEqualTypeOf<Model>();
  expectTypeOf(openai.responsesModel({ client: new OpenAI(), model: "gpt-4.1" })).toEqualTypeOf<Model>();
  expectTypeOf(anthropic.messagesModel({ client: new Anthropic(), model: "claude-sonnet-4-6", max_tokens: 1024 })).toEqualTypeOf<Model>();
  // @ts-expect-error: an Anthropic client has no chat.completions
  openai.chatModel({ client: new Anthropic(), model: "gpt-4.1" });
  // @ts-expect-error: the model is required
  anthropic.messagesModel({ client: new Anthropic() });
});

test("converters give what the SDKs' requests take", () => {
  expectTypeOf(openai.toChatMessages(conversation)).toExtend<OpenAI.Chat.Completions.ChatCompletionMessageParam[]>();
  expectTypeOf(openai.toResponsesInput(conversation)).toExtend<OpenAI.Responses.ResponseInput>();
  const { system, messages } = anthropic.toMessages(conversation);
  expectTypeOf(messages).toExtend<Anthropic.Messages.MessageParam[]>();
  expectTypeOf(system).toExtend<Anthropic.Messages.MessageCreateParams["system"]>();
});

test("the streams the SDKs return are what the model functions read", () => {
  expectTypeOf<OpenAI.Chat.Completions.ChatCompletionChunk>().toExtend<openai.ChatCompletionChunkLike>();
  expectTypeOf<OpenAI.Responses.ResponseStreamEvent>().toExtend<openai.ResponseStreamEventLike>();
  expectTypeOf<Anthropic.Messages.RawMessageStreamEvent>().toExtend<anthropic.MessageStreamEventLike>();
});

test("history importers take the SDKs' own stored request types and give toolrx messages", () => {
  expectTypeOf(openai.fromChatMessages([] as OpenAI.Chat.Completions.ChatCompletionMessageParam[])).toEqualTypeOf<Message[]>();
  expectTypeOf(openai.fromResponsesInput([] as OpenAI.Responses.ResponseInput)).toEqualTypeOf<Message[]>();
  expectTypeOf(anthropic.fromMessages({ system: "Be brief.", messages: [] as Anthropic.Messages.MessageParam[] })).toEqualTypeOf<Message[]>();
  expectTypeOf(anthropic.fromMessages({} as Anthropic.Messages.MessageCreateParams)).toEqualTypeOf<Message[]>();
});

test("checkConversation takes what the SDKs send and names its providers and codes exactly", () => {
  expectTypeOf(checkConversation([] as OpenAI.Chat.Completions.ChatCompletionMessageParam[], "openai-chat")).toEqualTypeOf<ConversationIssue[]>();
  checkConversation([] as OpenAI.Responses.ResponseInput, "openai-responses", { pendingCalls: true });
  checkConversation([] as Anthropic.Messages.MessageParam[], "anthropic");
  // @ts-expect-error: not a provider it knows
  checkConversation([], "gemini");
  expectTypeOf<ConversationIssue["code"]>().toEqualTypeOf<ConversationIssueCode>();
  // @ts-expect-error: the codes are a closed set
  const code: ConversationIssueCode = "custom";
  void code;
});

test("a usage event narrows on its type", () => {
  const event = {} as ModelEvent;
  if (event.type === "usage") expectTypeOf(event.usage).toEqualTypeOf<TokenUsage>();
});

test("hosted items: what the converters write, provider items included, is what the SDKs take", () => {
  expectTypeOf(anthropic.toMessages(conversation).messages).toExtend<Anthropic.Messages.MessageParam[]>();
  expectTypeOf<anthropic.HostedBlock>().toExtend<Anthropic.Messages.ContentBlockParam>();
  expectTypeOf<anthropic.AnthropicToolSearchTool>().toExtend<Anthropic.Messages.ToolUnion>();
  expectTypeOf(openai.toResponsesInput(conversation)).toExtend<OpenAI.Responses.ResponseInput>();
  expectTypeOf<openai.ResponsesHostedItem>().toExtend<OpenAI.Responses.ResponseInputItem>();
  expectTypeOf<openai.ResponsesToolSearchTool>().toExtend<OpenAI.Responses.Tool>();
  // The SDK's own blocks and items read back into the conversation.
  anthropic.fromMessage({} as Anthropic.Messages.Message);
  openai.fromResponseOutput({} as OpenAI.Responses.Response);
  expectTypeOf<AssistantMessage["providerItems"]>().toEqualTypeOf<readonly import("../../src/index.js").ProviderItem[] | undefined>();
  expectTypeOf<Extract<ModelEvent, { type: "provider_item" }>["provider"]>().toEqualTypeOf<"anthropic" | "openai-responses">();
});
