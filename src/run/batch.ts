import type { RunOptions } from "./options/index.js";
import { RunResultCollector, type RunResult } from "./results/index.js";
import { streamToolCalls } from "./stream.js";
import type { ToolResolver } from "../resolve/resolver.js";
import type { Tool } from "../tool/tool.js";
import type { ToolCall } from "../tool/tool-call.js";
import { describe } from "../tool/tool-error.js";

/**
 * Run a batch of tool calls and collect one message per call, in input order, whatever
 * happened to each. It is {@link streamToolCalls} collected: the same checks, events and
 * policies.
 *
 * Rejects with a `TypeError` for invalid options or calls, with an `EngineError` when a call
 * names an unknown tool (no tool runs), and with the signal's reason when `opts.signal` aborts.
 *
 * @example
 * const { messages, halt } = await runToolCalls(
 *   [{ id: "c1", name: "weather", arguments: { city: "Paris" } }],
 *   [weather],
 * );
 * // messages: [{ role: "tool", toolCallId: "c1", name: "weather", content: '{"tempC":21}', isError: false }]
 * // halt: undefined
 */
export function runToolCalls(calls: readonly ToolCall[], tools: readonly Tool[] | ToolResolver, options?: RunOptions): Promise<RunResult> {
  return collectToolCalls(streamToolCalls, calls, tools, options);
}

/**
 * `runToolCalls` over any runner with `streamToolCalls`' signature: the same array check, and
 * the stream's events collected into one message per call, in input order. Lets a wrapped
 * runner (toolrx/otel's traced one) collect exactly as the core does.
 *
 * @internal
 */
export function collectToolCalls(
  stream: typeof streamToolCalls,
  calls: readonly ToolCall[],
  tools: readonly Tool[] | ToolResolver,
  options?: RunOptions,
): Promise<RunResult> {
  return new Promise<RunResult>((resolve, reject) => {
    if (!Array.isArray(calls)) {
      throw new TypeError(`Expected \`calls\` to be an array of tool calls, got ${describe(calls)}`);
    }
    const collector = new RunResultCollector();
    stream(calls, tools, options).subscribe({
      next: (event) => collector.add(event),
      error: reject,
      complete: () => resolve(collector.result()),
    });
  });
}
