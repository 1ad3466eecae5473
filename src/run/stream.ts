import { Observable, type Subscribable } from "rxjs";
import type { ToolEvent } from "./results/index.js";
import { runEnvOf, type RunEnv, type RunOptions, toolSource, type ToolSource, gatedExecutor } from "./options/index.js";
import { type CheckedCall, checkBatch, checkCall, snapshotCalls } from "./checks/index.js";
import { Pool } from "./pool/index.js";
import type { Tool } from "../tool/tool.js";
import type { ToolCall } from "../tool/tool-call.js";
import { describe } from "../util/safe.js";
import type { ToolResolver } from "../resolve/resolver.js";

/**
 * Run tool calls and tell what happens as it happens. Cold and lazy: nothing runs until you
 * subscribe; unsubscribing aborts every running handler's `ctx.signal` and leaves no timer or
 * listener behind.
 *
 * Given an array, the batch is checked first: an unknown tool name errors the stream with an
 * `EngineError` before any call runs. Given an Observable, calls start as they arrive, `index` is
 * arrival order, and an unknown name fails that call alone (`not_found`).
 *
 * @throws {TypeError} at call time, for invalid options or malformed calls.
 *
 * @example
 * streamToolCalls(calls, [weather], { maxConcurrency: 4, toolTimeout: 5_000 })
 *   .subscribe((event) => console.log(event.index, event.type));
 * // 0 tool_execution_started
 * // 0 tool_execution_completed
 * // 0 tool_result_encoded
 */
export function streamToolCalls(
  calls: readonly ToolCall[] | Subscribable<ToolCall>,
  tools: readonly Tool[] | ToolResolver,
  options?: RunOptions,
): Observable<ToolEvent> {
  const streamed = !Array.isArray(calls);
  if (streamed && typeof (calls as { subscribe?: unknown } | null)?.subscribe !== "function") {
    throw new TypeError(`Expected \`calls\` to be an array or an Observable of tool calls, got ${describe(calls)}`);
  }
  let env = runEnvOf(options, streamed ? undefined : calls.length);
  const source = toolSource(tools, env);
  // Only a batch that may meet a `needsApproval` tool pays for the gate (a resolver's list is read lazily).
  if (env.gateApprovals && (!Array.isArray(tools) || tools.some((tool) => tool.needsApproval !== undefined))) {
    env = { ...env, executor: gatedExecutor(env.executor, env) };
  }
  if (streamed) return streamOf(calls as Subscribable<unknown>, source, env);
  return batchOf(snapshotCalls(calls as readonly unknown[]), source, env);
}

function batchOf(calls: readonly CheckedCall[], source: ToolSource, env: RunEnv): Observable<ToolEvent> {
  return new Observable<ToolEvent>((subscriber) => {
    if (calls.length === 0) {
      subscriber.complete();
      return;
    }
    try {
      checkBatch(calls, source, env);
    } catch (e) {
      subscriber.error(e);
      return;
    }
    return new Pool(env, source, subscriber, calls).open();
  });
}

function streamOf(calls: Subscribable<unknown>, source: ToolSource, env: RunEnv): Observable<ToolEvent> {
  return new Observable<ToolEvent>((subscriber) => {
    // The tools index now (a resolver lists them only now), before the input is subscribed.
    try {
      source.check();
    } catch (e) {
      subscriber.error(e);
      return;
    }
    const pool = new Pool(env, source, subscriber, undefined);
    const teardown = pool.open();
    if (pool.closed) return teardown;
    let arrived = 0;
    const input = calls.subscribe({
      next(call) {
        if (pool.closed) return;
        let passed: CheckedCall;
        try {
          passed = checkCall(call, arrived++);
        } catch (e) {
          pool.fail(e);
          return;
        }
        pool.push(passed);
      },
      error(e: unknown) {
        pool.fail(e);
      },
      complete() {
        pool.inputDone = true;
        pool.drain();
      },
    });
    return () => {
      // A hand-written Subscribable may return no subscription at all.
      if (typeof input?.unsubscribe === "function") input.unsubscribe();
      teardown();
    };
  });
}
