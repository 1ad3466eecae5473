import { Observable, type Subscribable } from "rxjs";
import type { ToolEvent } from "./results/index.js";
import { resolveOptions, type RunEnv, type RunOptions, toolSource, type ToolSource, gatedExecutor } from "./options/index.js";
import { Pool } from "./pool/index.js";
import type { Tool } from "../tool/tool.js";
import { assertToolCall, type ToolCall } from "../tool/tool-call.js";
import { describe } from "../util/safe.js";
import { snapshotCalls } from "./checks/index.js";
import { unknownTool } from "../tool/unknown-tool.js";
import { ApprovalMismatchError } from "../tool/approval/approval-mismatch-error.js";
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
  let env = resolveOptions(options, streamed ? undefined : calls.length);
  const source = toolSource(tools, env);
  // Only a batch that may meet a `needsApproval` tool pays for the gate (a resolver's list is read lazily).
  if (env.gateApprovals && (!Array.isArray(tools) || tools.some((tool) => tool.needsApproval !== undefined))) {
    env = { ...env, executor: gatedExecutor(env.executor, env) };
  }
  if (streamed) return streamOf(calls as Subscribable<ToolCall>, source, env, false);
  return batchOf(snapshotCalls(calls as readonly unknown[]), source, env);
}

function batchOf(calls: readonly ToolCall[], source: ToolSource, env: RunEnv): Observable<ToolEvent> {
  return new Observable<ToolEvent>((subscriber) => {
    if (calls.length === 0) {
      subscriber.complete();
      return;
    }
    if (env.onUnknownTool === "fail") {
      for (const call of calls) {
        if (source.lookup(call.name) === undefined) {
          subscriber.error(unknownTool(call.name, source.names()));
          return;
        }
      }
    }
    if (env.gateApprovals && env.approvals !== undefined) {
      for (const id of env.approvals.keys()) {
        if (!calls.some((call) => call.id === id)) {
          subscriber.error(new ApprovalMismatchError("not_pending", id));
          return;
        }
      }
    }
    const pool = new Pool(env, source, subscriber, calls);
    return pool.open();
  });
}

/**
 * The runner over an input whose calls were checked already, with options resolved already: the
 * agent loop checks each call as the model's reply brings it and resolves the run's options once
 * per run, so a turn's runner does neither again. Internal: what `streamToolCalls` does after its
 * checks, for an Observable of calls.
 */
export function streamCheckedCalls(calls: Subscribable<ToolCall>, source: ToolSource, env: RunEnv): Observable<ToolEvent> {
  return streamOf(calls, source, env, true);
}

function streamOf(calls: Subscribable<ToolCall>, source: ToolSource, env: RunEnv, checked: boolean): Observable<ToolEvent> {
  return new Observable<ToolEvent>((subscriber) => {
    const pool = new Pool(env, source, subscriber, undefined);
    const teardown = pool.open();
    if (pool.closed) return teardown;
    let arrived = 0;
    const input = calls.subscribe({
      next(call) {
        if (pool.closed) return;
        if (!checked) {
          try {
            assertToolCall(call, arrived++);
          } catch (e) {
            pool.fail(e);
            return;
          }
        }
        pool.push(call);
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
