import { type ResultContext, resultOf, rejectedResult, type McpInputRequest } from "../results/index.js";
import { isConnectionLost, SDK_TIMEOUT_OFF, type McpCallParams, type McpProgress } from "../wire/index.js";
import { DISMISSED, type ElicitAnswer, elicitAnswer } from "./elicitation-router.js";
import { holdCall } from "./held-calls.js";
import type { McpCallPlan } from "./call-plan.js";
import { reportProgress } from "./progress.js";
import { cancelTask } from "./task-cancel.js";
import { extTaskMeta, followTask, readTask } from "../tasks/index.js";
import { type ExtCall, extCall } from "./ext-call.js";
import { TaskWatch } from "./task-watch.js";
import { askUser, error, type HandlerContext, type HandlerResult, reportFate, ToolError } from "../../index.js";
import { watchAbort } from "../../internal.js";
import { isPlainRecord } from "../../util/safe.js";

/** The key of a server's question among an `ask_user`'s `inputRequests` and the host's `inputResponses`. */
export const ELICITATION_KEY = "elicitation";

type Woken = { readonly result: HandlerResult } | { readonly question: true };

/**
 * One `tools/call` to an MCP server, which may outlive the handler that started it: a server's
 * `elicitation/create` holds it (the handler answers `ask_user` and the call waits, held, for the
 * host's answer), and a resumed handler picks it up again. A task call follows its task with
 * `tasks/get` / `tasks/result` (or, on a server of the 2026-07-28 tasks extension, `tasks/get`
 * alone, `tasks/update` taking the host's answers), and a cancel while it runs sends `tasks/cancel`.
 */
export class McpCall {
  readonly #plan: McpCallPlan;
  readonly #params: McpCallParams;
  readonly #rc: ResultContext;
  readonly #controller = new AbortController();
  readonly #reattach: string | undefined;
  /** Answers to send the re-attached task first (`tasks/update`, tasks extension). */
  readonly #update: Record<string, unknown> | undefined;
  /** The `_meta` opting each request into the tasks extension, when the server speaks it. */
  #ext: Record<string, unknown> | undefined;
  /** Input requests answered (tasks extension); made on first use: a plain call has none. */
  #answered: Set<string> | undefined;
  #ctx: HandlerContext | undefined;
  #abortedBy: HandlerContext | undefined;
  #outcome: Promise<HandlerResult> | undefined;
  #wake: (() => void) | undefined;
  #question: { params: Record<string, unknown>; answer: (a: ElicitAnswer) => void; asked: boolean } | undefined;
  /** Made on first use: a plain call that ends well never follows a task. */
  #taskWatch: TaskWatch | undefined;
  readonly #onprogress = (p: McpProgress): void => {
    if (this.#ctx !== undefined) reportProgress(this.#ctx, p);
  };
  #expired = false;

  constructor(plan: McpCallPlan, params: McpCallParams, rc: ResultContext, reattach: string | undefined, update?: Record<string, unknown>) {
    this.#plan = plan;
    this.#params = params;
    this.#rc = rc;
    this.#reattach = reattach;
    this.#update = update;
  }

  get #task(): TaskWatch {
    this.#taskWatch ??= new TaskWatch(this.#rc, () => this.#ctx);
    return this.#taskWatch;
  }

  /** Run (or go on with) the call under `ctx`, until it ends or its server asks a question. */
  async run(ctx: HandlerContext): Promise<HandlerResult> {
    const { router } = this.#plan;
    if (this.#outcome === undefined) {
      // Without elicitation no server question reaches the call (only the router calls `ask`):
      // nothing for `#drive` to clean up, and the outcome is always read below.
      this.#outcome = router === undefined ? this.#outcomeOf() : this.#drive();
      // Nobody may read the outcome of a call whose question expired.
      if (router !== undefined) this.#outcome.catch(() => {});
    }
    const outcome = this.#outcome;
    this.#ctx = ctx;
    router?.running(this, true);
    // Heard without making ctx's AbortSignal, which would cost more than the rest of the call here.
    const watch = watchAbort(ctx, (reason) => this.#abort(ctx, reason));
    if (watch.aborted) this.#abort(ctx, watch.reason);
    try {
      // Without elicitation its outcome is all there is to wait for, without a race and a promise per round.
      if (router === undefined) return await outcome;
      for (;;) {
        const question = this.#question;
        if (question !== undefined && !question.asked && !this.#controller.signal.aborted) {
          question.asked = true;
          return this.#held(question.params);
        }
        const woken = new Promise<Woken>((resolve) => {
          this.#wake = () => resolve({ question: true });
        });
        const next = await Promise.race([outcome.then((result): Woken => ({ result })), woken]);
        if ("result" in next) return next.result;
      }
    } finally {
      this.#wake = undefined;
      this.#ctx = undefined;
      router?.running(this, false);
      watch.stop();
    }
  }

  /** Go on after the host answered the held question (`inputResponses[ELICITATION_KEY]`). */
  resume(inputResponses: unknown, ctx: HandlerContext): Promise<HandlerResult> {
    const question = this.#question;
    this.#question = undefined;
    const answer = isPlainRecord(inputResponses) ? inputResponses[ELICITATION_KEY] : undefined;
    question?.answer(elicitAnswer(answer));
    return this.run(ctx);
  }

  /** The server's `elicitation/create` for this call: held until the host answers. One at a time. */
  ask(params: Record<string, unknown>): Promise<ElicitAnswer> {
    if (this.#question !== undefined || this.#expired || this.#controller.signal.aborted || this.#outcome === undefined) return Promise.resolve(DISMISSED);
    return new Promise((answer) => {
      this.#question = { params, answer, asked: false };
      this.#wake?.();
    });
  }

  /**
   * The host did not answer within `holdFor`: the server hears the question dismissed (`cancel`),
   * as the spec has it, and decides what becomes of the call; its result is read by no one.
   */
  expire(): void {
    // Nobody will resume it: any further question is dismissed at once.
    this.#expired = true;
    const question = this.#question;
    this.#question = undefined;
    question?.answer(DISMISSED);
  }

  #abort(ctx: HandlerContext, reason: unknown): void {
    if (this.#controller.signal.aborted) return;
    this.#abortedBy = ctx;
    this.#controller.abort(reason);
  }

  #held(params: Record<string, unknown>): HandlerResult {
    const { server, mcpName, toolName, arguments: args } = this.#rc;
    const mcp: McpInputRequest = {
      server,
      tool: mcpName,
      toolName,
      arguments: args,
      inputRequests: { [ELICITATION_KEY]: { method: "elicitation/create", params } },
      held: holdCall(this, this.#plan.holdFor),
    };
    if (this.#task.id !== undefined) mcp.taskId = this.#task.id;
    const message = typeof params.message === "string" && params.message !== "" ? params.message : `MCP tool ${mcpName} needs more input`;
    return askUser(message, { mcp });
  }

  async #drive(): Promise<HandlerResult> {
    try {
      return await this.#outcomeOf();
    } finally {
      this.#plan.router?.task(this, this.#task.id, false);
      const question = this.#question;
      this.#question = undefined;
      question?.answer(DISMISSED);
    }
  }

  async #outcomeOf(): Promise<HandlerResult> {
    const { signal } = this.#controller;
    const plan = this.#plan;
    const rc = this.#rc;
    // A signal aborted before the request went out sent no cancel: there is no fate to tell.
    const requested = !signal.aborted;
    try {
      this.#ext = plan.request === undefined ? undefined : extTaskMeta(plan.client);
      if (this.#ext !== undefined) return await extCall(this.#extSide(), this.#ext);
      if (this.#reattach !== undefined) return await this.#follow(this.#reattach);
      if (plan.asTask && plan.request !== undefined) {
        const task = plan.taskTtl === undefined ? {} : { ttl: plan.taskTtl };
        const answer = await plan.request("tools/call", { ...this.#params, task }, { signal });
        // A server may answer a task tool at once, with its result: that is the answer.
        if (!("task" in answer)) return resultOf(answer, rc);
        const state = readTask(answer.task);
        if (typeof state === "string") return this.#task.malformed(state, answer);
        this.#task.state(state);
        return await this.#follow(state.taskId);
      }
      const result = await plan.callTool(this.#params, {
        signal,
        timeout: SDK_TIMEOUT_OFF,
        onprogress: this.#onprogress,
        resetTimeoutOnProgress: true,
      });
      return resultOf(result, rc);
    } catch (cause) {
      if (signal.aborted) {
        if (this.#task.id !== undefined) return await cancelTask(plan, this.#task.id, rc, this.#abortedBy, this.#ext);
        // Both SDKs reject at once on abort, after sending the cancel; the runner still waits for
        // this handler's word on the attempt it abandoned, so the fate is told before it settles.
        if (requested && this.#abortedBy !== undefined) reportFate(this.#abortedBy, "cancel_sent");
      }
      if (isConnectionLost(cause, plan.client)) {
        const message = `MCP server ${rc.server === "" ? "" : `"${rc.server}" `}went away during tool ${rc.mcpName}`;
        return error(new ToolError("handler_exit", { message, toolName: rc.toolName, toolCallId: rc.toolCallId, cause, metadata: this.#task.meta() }));
      }
      const rejected = rejectedResult(cause, rc);
      if (rejected !== undefined) return rejected;
      if (this.#task.id !== undefined) {
        const message = `MCP task ${this.#task.id} of tool ${rc.mcpName} failed: ${cause instanceof Error ? cause.message : String(cause)}`;
        return error(new ToolError("handler_raised", { message, toolName: rc.toolName, toolCallId: rc.toolCallId, cause, metadata: this.#task.meta() }));
      }
      // An aborted call is already answered by toolrx (timeout or cancel); this is never seen.
      throw cause;
    }
  }

  async #follow(taskId: string): Promise<HandlerResult> {
    this.#task.id = taskId;
    this.#plan.router?.task(this, taskId, true);
    const { request, maxPollInterval } = this.#plan;
    if (request === undefined) throw new Error("re-attaching to an MCP task needs a client with request()");
    const end = await followTask({ request, signal: this.#controller.signal, maxPollInterval, onState: (s) => this.#task.state(s) }, taskId);
    if ("malformed" in end) return this.#task.malformed(end.malformed, end.value);
    const last = this.#task.last;
    if (last?.status === "cancelled" && !isPlainRecord(end.result)) {
      const message = `MCP task ${taskId} of tool ${this.#rc.mcpName} was cancelled by its server`;
      return error(new ToolError("handler_raised", { message, toolName: this.#rc.toolName, toolCallId: this.#rc.toolCallId, metadata: this.#task.meta() }));
    }
    return resultOf(end.result, this.#rc);
  }

  #extSide(): ExtCall {
    this.#answered ??= new Set<string>();
    return {
      plan: this.#plan,
      params: this.#params,
      rc: this.#rc,
      watch: this.#task,
      signal: this.#controller.signal,
      answered: this.#answered,
      reattach: this.#reattach,
      update: this.#update,
      onprogress: this.#onprogress,
    };
  }
}
