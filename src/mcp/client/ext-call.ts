import type { ResultContext } from "../results/index.js";
import { resultOf } from "../results/index.js";
import { extTaskOutcome, type ExtTaskEnd, followExtTask, type McpExtTaskState, readExtTask } from "../tasks/index.js";
import type { McpCallParams, McpProgress } from "../wire/index.js";
import type { McpCallPlan } from "./call-plan.js";
import { rawRequest } from "./raw-request.js";
import type { TaskWatch } from "./task-watch.js";
import type { HandlerResult } from "../../index.js";

/** One call's part in {@link extCall}: what it sends, and where what it learns goes. */
export interface ExtCall {
  readonly plan: McpCallPlan;
  readonly params: McpCallParams;
  readonly rc: ResultContext;
  readonly watch: TaskWatch;
  readonly signal: AbortSignal;
  /** The keys of the server's questions the host answered, across the call's rounds. */
  readonly answered: Set<string>;
  /** The task a resumed call re-attaches to. */
  readonly reattach: string | undefined;
  /** Answers to send the re-attached task first (`tasks/update`). */
  readonly update: Record<string, unknown> | undefined;
  readonly onprogress: (p: McpProgress) => void;
}

/**
 * The call on a server of the tasks extension (revision 2026-07-28): `tools/call` opted in
 * through its `_meta`, sent raw (the SDK refuses `resultType: "task"`), and a task handle
 * followed with `tasks/get`; a re-attaching call sends its answers first, then follows.
 */
export async function extCall(call: ExtCall, meta: Record<string, unknown>): Promise<HandlerResult> {
  const { plan, signal, watch, rc } = call;
  const request = plan.request as NonNullable<McpCallPlan["request"]>;
  const follow = (taskId: string, created?: McpExtTaskState) => {
    watch.id = taskId;
    const follower = { request, meta, signal, maxPollInterval: plan.maxPollInterval, answered: call.answered, onState: (s: McpExtTaskState) => watch.state(s) };
    return followExtTask(follower, taskId, created);
  };
  let end: ExtTaskEnd;
  if (call.reattach !== undefined) {
    watch.id = call.reattach;
    if (call.update !== undefined) {
      await request("tasks/update", { taskId: call.reattach, inputResponses: call.update, _meta: meta }, { signal });
      for (const key of Object.keys(call.update)) call.answered.add(key);
    }
    end = await follow(call.reattach);
  } else {
    const answer = await rawRequest(plan.client, "tools/call", call.params, { signal, meta, onprogress: call.onprogress });
    const { resultType, ...rest } = answer;
    // The server decides per request: a plain result (or its question) is the answer.
    if (resultType === "complete" || resultType === undefined) return resultOf(rest, rc);
    if (resultType === "input_required") return resultOf(answer, rc);
    if (resultType !== "task") return watch.malformed(`an unknown resultType ${JSON.stringify(resultType)}`, answer);
    const created = readExtTask(answer, undefined, true);
    if (typeof created === "string") return watch.malformed(created, answer);
    watch.state(created);
    end = await follow(created.taskId, created);
  }
  if ("malformed" in end) return watch.malformed(end.malformed, end.value);
  return extTaskOutcome(end.state, rc, call.answered, watch.meta());
}
