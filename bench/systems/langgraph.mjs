// LangGraph.js adapter.
//
// Path measured: the prebuilt `ToolNode` (`@langchain/langgraph/prebuilt`), the
// node LangGraph agents use to execute the tool calls of the last AIMessage.
// Each run invokes it with `{ messages: [AIMessage with one tool_call per
// call] }`. The tool is a `tool()` from `@langchain/core/tools` with a zod
// schema, so every call goes through LangChain's own path: schema validation,
// the callback manager, the abort-signal race in the tool wrapper, and one
// ToolMessage built per call. This is what a LangGraph application pays to
// execute N tool calls once the model has asked for them, so it is the
// counterpart of toolrx executing the same N calls. No model and no graph
// compilation are involved; the graph's own superstep machinery is left out,
// which is kinder to LangGraph than a full agent loop would be.
//
// Caveats: ToolNode starts every tool call at once (`Promise.all`). It ignores
// `maxConcurrency` (that only applies to `Runnable.batch`), so there is no
// concurrency limit. The per-tool deadline comes from @langchain/core: a tool's
// `defaultConfig.timeout` gives every invocation its own
// `AbortSignal.timeout(ms)`. The tool wrapper rejects as soon as that signal
// fires, even if the tool body never settles, and ToolNode turns the rejection
// into an error ToolMessage. The timer starts when the tool is invoked, before
// argument validation, so with many calls started together a tool body gets
// a little less than `deadlineMs`: with 16 calls, typically 0.5 to 2 ms less,
// and up to 5 ms less on a cold first run.
//
// Per-call outcomes are reported to the outside through LangChain callbacks
// (handleToolEnd / handleToolError). They are attached only when the harness
// asks for `onSettled`, because a callback handler adds a run manager per call.

import { tool } from "@langchain/core/tools";
import { AIMessage } from "@langchain/core/messages";
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import { z } from "zod";

// Make sure LangSmith tracing can never switch on from the caller's
// environment: it would add a tracer per call and make network requests.
for (const name of ["LANGSMITH_TRACING_V2", "LANGCHAIN_TRACING_V2", "LANGSMITH_TRACING", "LANGCHAIN_TRACING"]) {
  process.env[name] = "false";
}

/** @type {import("../lib/system.mjs").System} */
export const system = {
  name: "langgraph",
  framework: true,
  limitsConcurrency: false,
  // Past this many calls in one go a run takes too long (see the note).
  maxCalls: { quick: 1_000, full: 10_000 },
  perToolDeadline: true,
  note: "ToolNode runs every tool call at once (Promise.all), no concurrency limit; the deadline is @langchain/core's per-invocation timeout (AbortSignal.timeout)",

  /** @param {import("../lib/system.mjs").Setup} setup */
  async prepare({ handler, deadlineMs, onSettled }) {
    const work = tool((input, config) => handler(input, config?.signal), {
      name: "work",
      description: "benchmark tool",
      schema: z.object({ i: z.number() }),
      defaultConfig: deadlineMs ? { timeout: deadlineMs } : undefined,
    });
    const toolNode = new ToolNode([work]);

    /** A callback handler reporting each call's outcome as soon as LangChain does. */
    const settledHandler = (calls) => {
      const iById = new Map(calls.map((c) => [c.id, c.arguments.i]));
      const iByRun = new Map();
      const settle = (runId) => {
        const i = iByRun.get(runId);
        iByRun.delete(runId);
        onSettled(i);
      };
      return BaseCallbackHandler.fromMethods({
        awaitHandlers: true, // run inline, not on LangChain's background queue
        handleToolStart: (_tool, _input, runId, _parent, _tags, _meta, _name, toolCallId) => {
          iByRun.set(runId, iById.get(toolCallId));
        },
        handleToolEnd: (_output, runId) => settle(runId),
        handleToolError: (_err, runId) => settle(runId),
      });
    };

    return {
      /** @param {import("../lib/system.mjs").Call[]} calls */
      async run(calls) {
        const message = new AIMessage({
          content: "",
          tool_calls: calls.map((c) => ({ type: "tool_call", id: c.id, name: c.name, args: c.arguments })),
        });
        const config = onSettled ? { callbacks: [settledHandler(calls)] } : undefined;
        // Node unrefs AbortSignal.timeout timers. If the tool bodies never settle
        // and nothing else is pending, the process would exit before the
        // deadlines fire, so one ref'd timer keeps it alive for the run.
        const keepAlive = deadlineMs ? setInterval(() => {}, 2 ** 30) : undefined;
        try {
          const { messages } = await toolNode.invoke({ messages: [message] }, config);
          return messages.length;
        } finally {
          clearInterval(keepAlive);
        }
      },
    };
  },
};
