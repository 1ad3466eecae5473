import type Anthropic from "@anthropic-ai/sdk";
import type OpenAI from "openai";
import { expectTypeOf, test } from "vitest";
import type { RunResult, Tool } from "../src/index.js";
import { anthropic, openai } from "../src/providers/index.js";

declare const result: RunResult;
declare const tools: Tool[];

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
