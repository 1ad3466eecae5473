// OpenAI Agents SDK (`@openai/agents` 0.20) adapter.
//
// Path measured: `Runner.run(agent, …)` with a local `Model` object in place of
// the OpenAI API. On its first turn the model answers with one `function_call`
// output item per call. The runner then parses and validates each call's JSON
// arguments against the zod schema and executes the function tools through its
// own path: guardrail checks, lifecycle hooks, the per-tool timeout wrapper,
// its optional concurrency limit, and one `function_call_result` item per call.
// On the second turn the model answers with a final assistant message and the
// run ends. This is the SDK's ordinary agent loop, so it is what an application
// pays to execute N tool calls, the counterpart of toolrx executing the same N
// calls. On the second turn the runner builds a model input holding all 2N
// items of the first turn; the local model itself does O(1) work per turn.
//
// Nothing touches the network. The model is a `Model` instance, so the default
// OpenAI provider is never asked for one, and no API key is needed. Importing
// `@openai/agents` registers an OpenAI trace exporter. We remove it
// (`setTraceProcessors([])`), switch tracing off globally
// (`setTracingDisabled(true)`), and set `tracingDisabled: true` on the runner.
//
// Caveats: the runner starts all of a turn's function calls at once unless
// `toolExecution.maxFunctionToolConcurrency` is set. We pass the harness's
// `concurrency` there, and the SDK then runs that many workers. The per-tool
// deadline is the tool's `timeoutMs`: a `setTimeout` raced against the tool.
// When it fires, the SDK aborts the signal it handed to the tool, and with
// `timeoutBehavior: "error_as_result"` a timeout message becomes that call's
// result.
//
// Scaling: after each turn the runner records every tool output in its run
// state (`RunState._commitToolInvocations`). For each output it scans the
// turn's items backwards and throws and catches an error for every item that
// is not the output's own call. That is O(N²) with an Error (and its stack
// trace) per step, and at 1,000 calls it is over 80% of the run's time. It is
// the SDK's real cost (0.20.0 is the latest release), but it makes large N
// impractical.

import { Agent, Runner, Usage, tool, setTraceProcessors, setTracingDisabled } from "@openai/agents";
import { z } from "zod";

setTraceProcessors([]);
setTracingDisabled(true);

const FINAL_MESSAGE = {
  type: "message",
  role: "assistant",
  status: "completed",
  content: [{ type: "output_text", text: "done" }],
};

/**
 * A local stand-in for the model. A run's first request carries a unique key as
 * its user input: that request gets the run's function calls, and any later
 * request with the same key gets the final message.
 */
class LocalModel {
  /** @type {Map<string, object[]>} function_call items per pending run, by key */
  pending = new Map();

  async getResponse(request) {
    const input = request.input;
    const key = typeof input === "string" ? input : input[0].content;
    const calls = this.pending.get(key);
    this.pending.delete(key);
    return { usage: new Usage(), output: calls ?? [FINAL_MESSAGE] };
  }

  // biome-ignore lint/correctness/useYield: the model interface wants an async generator here; this benchmark never streams
  async *getStreamedResponse() {
    throw new Error("LocalModel: streaming is not used by this benchmark");
  }
}

/** @type {import("../lib/system.mjs").System} */
export const system = {
  name: "openai-agents",
  framework: true,
  limitsConcurrency: true,
  // Past this many calls in one go a run takes too long (see the note).
  maxCalls: { quick: 100, full: 300 },
  perToolDeadline: true,
  note: "run-state bookkeeping after each turn is quadratic in the number of tool calls (~30 ms per call at 1,000 calls); includes the loop's second model turn",

  /** @param {import("../lib/system.mjs").Setup} setup */
  async prepare({ handler, concurrency, deadlineMs, onSettled }) {
    const model = new LocalModel();
    const work = tool({
      name: "work",
      description: "benchmark tool",
      parameters: z.object({ i: z.number() }),
      execute: (input, _runContext, details) => handler(input, details?.signal),
      ...(deadlineMs ? { timeoutMs: deadlineMs, timeoutBehavior: "error_as_result" } : {}),
    });
    const agent = new Agent({ name: "bench", instructions: "", model, tools: [work] });
    if (onSettled) {
      // Fired by the runner as each function tool finishes (result, error or timeout).
      // The run's context carries the map from call id to i.
      agent.on("agent_tool_end", (runContext, _tool, _result, { toolCall }) => {
        onSettled(runContext.context.iById.get(toolCall.callId));
      });
    }
    const runner = new Runner({
      tracingDisabled: true,
      // The SDK only accepts a positive integer; no limit (undefined, Infinity) means "all at once".
      toolExecution: Number.isInteger(concurrency) ? { maxFunctionToolConcurrency: concurrency } : undefined,
    });
    let seq = 0;

    return {
      /** @param {import("../lib/system.mjs").Call[]} calls */
      async run(calls) {
        const key = `run-${seq++}`;
        model.pending.set(
          key,
          calls.map((c) => ({
            type: "function_call",
            id: c.id,
            callId: c.id,
            name: c.name,
            status: "completed",
            arguments: JSON.stringify(c.arguments),
          })),
        );
        const context = onSettled ? { iById: new Map(calls.map((c) => [c.id, c.arguments.i])) } : undefined;
        const result = await runner.run(agent, key, { context });
        let count = 0;
        for (const item of result.newItems) {
          if (item.type === "tool_call_output_item") count++;
        }
        return count;
      },
    };
  },
};
