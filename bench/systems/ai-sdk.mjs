// Vercel AI SDK (`ai` v6) adapter.
//
// Path measured: `generateText` with the SDK's own mock model (`MockLanguageModelV3`
// from `ai/test`). The mock answers the single model call with one `tool-call`
// content part per call; generateText then parses and validates each call's
// JSON input against the zod schema, runs every `execute` through its own
// tool-execution path (callbacks, result assembly) and stops after that step
// (the default `stopWhen` is `stepCountIs(1)`). This is what an application pays
// for the SDK's tool execution once a model has answered with N tool calls, so
// it is the counterpart of toolrx executing the same N calls. The mock model's
// own cost is one function call per run.
//
// Caveats: generateText starts every tool call of a step at once
// (`Promise.all`) and has no concurrency limit. It has no per-tool timeout
// either: its `timeout` option (total or per step) aborts the signal handed to
// every tool and fails the whole call, so it is not a per-tool deadline.
// Assembling the step's content looks up each tool call with
// `toolCalls.find(...)` (`asContent`), which is O(N²) in the calls per step.
// That is the main reason the per-call cost grows with N (about 85 µs per call
// at 10k calls and about 320 µs at 100k).
// Telemetry is off by default (`experimental_telemetry` unset => no-op tracer)
// and the mock reports no warnings, so nothing is logged per call.

import { generateText, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";

const ZERO_USAGE = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

/** @type {import("../lib/system.mjs").System} */
export const system = {
  name: "ai-sdk",
  framework: true,
  limitsConcurrency: false,
  // Past this many calls in one go a run takes too long (see the note).
  maxCalls: { quick: 1_000, full: 10_000 },
  perToolDeadline: false,
  note: "runs every tool call of a step at once (Promise.all), no concurrency limit; result assembly is quadratic in the calls per step",

  /** @param {import("../lib/system.mjs").Setup} setup */
  async prepare({ handler, onSettled }) {
    /** Tool-call parts for each pending run, keyed by the prompt that run sends. */
    const pending = new Map();
    let seq = 0;

    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        const key = options.prompt.at(-1).content[0].text;
        const content = pending.get(key);
        pending.delete(key);
        return {
          content,
          finishReason: { unified: "tool-calls", raw: undefined },
          usage: ZERO_USAGE,
          warnings: [],
        };
      },
    });

    const tools = {
      work: tool({
        description: "benchmark tool",
        inputSchema: z.object({ i: z.number() }),
        execute: (input, { abortSignal }) => handler(input, abortSignal),
      }),
    };

    const onToolCallFinish = onSettled ? (event) => onSettled(event.toolCall.input.i) : undefined;

    return {
      /** @param {import("../lib/system.mjs").Call[]} calls */
      async run(calls) {
        const key = `run-${seq++}`;
        pending.set(
          key,
          calls.map((c) => ({
            type: "tool-call",
            toolCallId: c.id,
            toolName: c.name,
            input: JSON.stringify(c.arguments),
          })),
        );
        model.doGenerateCalls.length = 0; // the mock records every request; don't let it grow
        const result = await generateText({
          model,
          tools,
          prompt: key,
          maxRetries: 0,
          experimental_onToolCallFinish: onToolCallFinish,
        });
        let count = 0;
        for (const part of result.content) {
          if (part.type === "tool-result" || part.type === "tool-error") count++;
        }
        return count;
      },
    };
  },
};
