import { Observable } from "rxjs";
import type { ToolEvent } from "./results/index.js";
import { gatedExecutor, runEnvOf, type RunEnv, type RunOptions, toolSource, type ToolSource } from "./options/index.js";
import { type CheckedCall, checkBatch, checkCall } from "./checks/index.js";
import { type CallEvents, SingleCall } from "./single-call.js";
import type { ToolResolver } from "../resolve/resolver.js";
import type { Tool } from "../tool/tool.js";
import type { ToolCall } from "../tool/tool-call.js";

/** What changes from one run of a {@link preparedCall} to the next. */
export type RunOfPrepared = Pick<RunEnv, "executor" | "signal" | "timeout" | "sessionId" | "requestId" | "onReport">;

/**
 * One call run as `streamToolCalls([call], tools, options)` runs it, by {@link SingleCall}: the
 * same checks (the call's shape, an unknown tool under `onUnknownTool: "fail"`, approvals that
 * match no call), the same events in the same order, the same errors. Internal: what the
 * property holding the one-call runner to `streamToolCalls` runs.
 *
 * @throws {TypeError} at call time, for invalid options or a malformed call.
 */
export function streamOneCall(call: ToolCall, tools: readonly Tool[] | ToolResolver, options?: RunOptions): Observable<ToolEvent> {
  let env = runEnvOf(options, 1);
  const source = toolSource(tools, env);
  if (env.gateApprovals && (!Array.isArray(tools) || tools.some((tool) => tool.needsApproval !== undefined))) {
    env = { ...env, executor: gatedExecutor(env.executor, env) };
  }
  const checked = checkCall(call, 0);
  return new Observable<ToolEvent>((subscriber) => openChecked(checked, source, env, subscriber));
}

/**
 * Single calls run as {@link streamOneCall} runs them, under `options` checked and resolved once,
 * and a tool list indexed once: for a host that runs one call after another under the same
 * options (a BullMQ worker, one job after another), where checking them again per call, and an
 * Observable and a Subscriber per call, are a share of the run. Each run gives what is its own
 * (`RunOfPrepared`, unchecked: the host makes it) and where its events go; a resolver's tools are
 * still listed per run, as they may change. A run returns its teardown. Internal.
 *
 * @throws {TypeError} as `streamToolCalls`, and for `toolExecutors` (a run's executor replaces the run's whole routing).
 */
export function preparedCall(tools: readonly Tool[] | ToolResolver, options: RunOptions): (call: ToolCall, run: RunOfPrepared, out: CallEvents) => () => void {
  const base = runEnvOf(options, 1);
  if (base.executors !== undefined) throw new TypeError("Expected no `toolExecutors` for prepared runs: each run gives its executor");
  const listed = Array.isArray(tools) ? toolSource([...tools], base) : undefined;
  const gated = base.gateApprovals && (!Array.isArray(tools) || tools.some((tool) => tool.needsApproval !== undefined));
  return (call, run, out) => {
    // The run's own fields over the prepared env, which stays its prototype: a spread copied all
    // 32 of its fields per job. Never spread this env: a spread keeps only the run's own fields.
    const env = Object.assign(Object.create(base) as RunEnv, run) as { -readonly [K in keyof RunEnv]: RunEnv[K] };
    if (gated) env.executor = gatedExecutor(run.executor, env);
    return openChecked(checkCall(call, 0), listed ?? toolSource(tools, env), env, out);
  };
}

/** What a one-call batch does at subscribe time: its checks (failing the stream), then its one call. */
function openChecked(call: CheckedCall, source: ToolSource, env: RunEnv, out: CallEvents): () => void {
  try {
    checkBatch([call], source, env);
  } catch (e) {
    out.error(e);
    return noop;
  }
  return new SingleCall(env, source, out).open(call);
}

function noop(): void {}
