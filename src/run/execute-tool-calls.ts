import type { Observable, OperatorFunction } from "rxjs";
import type { ToolEvent } from "./results/index.js";
import { resolveOptions, type RunOptions, toolSource } from "./options/index.js";
import type { ToolResolver } from "../resolve/resolver.js";
import { streamToolCalls } from "./stream.js";
import type { Tool } from "../tool/tool.js";
import type { ToolCall } from "../tool/tool-call.js";

/**
 * The runner as an RxJS operator: each call of the source starts as it arrives, with the
 * semantics of `streamToolCalls` on an Observable of calls (`index` is arrival order, an unknown
 * name fails that call alone as `not_found`, a source error aborts the running calls and is
 * passed on). Options are checked when the operator is made, not when it is subscribed.
 *
 * @throws {TypeError} for invalid options or tools.
 *
 * @example
 * modelCalls$.pipe(executeToolCalls([weather], { toolTimeout: 5_000 }))
 *   .subscribe((event) => console.log(event.index, event.type));
 * // 0 tool_execution_started
 * // 0 tool_execution_completed
 * // 0 tool_result_encoded
 */
export function executeToolCalls(tools: readonly Tool[] | ToolResolver, options?: RunOptions): OperatorFunction<ToolCall, ToolEvent> {
  toolSource(tools, resolveOptions(options, undefined));
  return (calls: Observable<ToolCall>) => streamToolCalls(calls, tools, options);
}
