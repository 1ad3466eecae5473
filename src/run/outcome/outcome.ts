import { jsonEncoder } from "../../tool/encoder.js";
import type { ToolExecutionCompleted, ToolHaltEvent, ToolResultEncoded, ToolTailEvent } from "../results/index.js";
import { invalidReturn } from "../../tool/invalid-return.js";
import { isApprovalHalt } from "../../tool/approval/approval-halt.js";
import { type RunEnv, applyPolicy } from "../options/index.js";
import { timeoutResult, type DeadlineTimeout } from "./run-errors.js";
import { error, isHandlerResult, isReservedHaltReason, ok, type HandlerResult } from "../../tool/results.js";
import { describe } from "../../util/safe.js";
import type { CallIdentity } from "../../tool/tool-call.js";
import { ToolError } from "../../tool/tool-error.js";
import { checkParts, type ContentPart } from "../../tool/content-part.js";

/**
 * A call being answered. Its last two events are decided together, because the completed result
 * depends on the policy: the tail is returned and the completed event is left here for the caller
 * to send, rather than the two returned as a pair, an array per call (64 B, a fourteenth of what a
 * synchronous call allocates).
 */
export interface Answering extends CallIdentity {
  /** The completed event of the outcome just decided; the caller sends it and clears this. */
  completed: ToolExecutionCompleted | undefined;
}

/**
 * Turn what the executor returned into the call's `completed` and tail events: encode
 * successes and halts, route every failure (the handler's own, a reserved halt, an encoder
 * failure) through the `onToolError` policy exactly once.
 *
 * Runs once per call, so it is written for the hot path: no closures, no object spreads, and
 * events built as literals of one shape each.
 */
export function outcomeOf(returned: unknown, who: Answering, env: RunEnv): ToolTailEvent {
  if (!isHandlerResult(returned)) return failed(env, who, invalidReturn(returned, who.toolName, who.toolCallId));
  const result: HandlerResult = returned;
  // Each field is read once, into locals (no object per call). A getter may answer differently
  // than it did for `isHandlerResult`, or throw now: the values read are what count, so their
  // shape is checked again below, and anything that is not a result is an invalid return.
  let type: unknown;
  let value: unknown;
  let text: unknown;
  let opts: unknown;
  let parts: unknown;
  const r = result as Partial<Record<"type" | "value" | "reason" | "question" | "opts" | "result" | "parts", unknown>>;
  try {
    type = r.type;
    if (type === "ok") {
      value = r.value;
      parts = r.parts;
    } else if (type === "error") value = r.reason;
    else if (type === "ask_user") {
      text = r.question;
      opts = r.opts ?? {};
    } else {
      text = r.reason;
      value = r.result;
    }
  } catch {
    type = undefined;
  }
  switch (type) {
    case "ok": {
      const content = encoded(env, value, who);
      if (content instanceof ToolError) return failed(env, who, content);
      // A remote attempt's parts are checked by the producer's runner, after its retry plan, as in-process.
      if (parts === undefined || env.remoteAttempt) return answered(who, completedEvent(who, result), encodedEvent(who, content, false));
      // A result built by hand skipped ok()'s check of its parts: checked here, a bad part is the call's invalid_return.
      const checked = checkedParts(parts, who, result);
      if (checked instanceof ToolError) return failed(env, who, checked);
      return answered(who, completedEvent(who, result), { ...encodedEvent(who, content, false), parts: checked });
    }
    case "error":
      return failed(env, who, value, result);
    case "ask_user":
      if (typeof text !== "string") break;
      return answered(who, completedEvent(who, result), {
        type: "ask_user_requested",
        index: who.index,
        toolCallId: who.toolCallId,
        toolName: who.toolName,
        question: text,
        opts: opts as object,
      });
    case "halt": {
      if (typeof text !== "string") break;
      // Judged where the call is answered: a remote attempt's halt goes back as it is, so that the
      // producer's runner judges it after its retry plan, as in-process (no `metadata.attempts`).
      if (isReservedHaltReason(text) && !isApprovalHalt(result) && !env.remoteAttempt) {
        return failed(
          env,
          who,
          new ToolError("invalid_return", {
            message: `tool ${who.toolName} halted with the reserved reason "${text}"; reserved halt reasons belong to the orchestrator`,
            toolName: who.toolName,
            toolCallId: who.toolCallId,
            cause: result,
            metadata: { reservedHaltReason: text },
          }),
        );
      }
      const content = encoded(env, value, who);
      if (content instanceof ToolError) return failed(env, who, content);
      return answered(who, completedEvent(who, result), haltEvent(who, text, value, content, false));
    }
  }
  return failed(env, who, invalidReturn(returned, who.toolName, who.toolCallId));
}

/**
 * The outcome of a call that timed out, as {@link outcomeOf} gives for `error(timeout.error)`,
 * without building the error where the default policy and encoder need only its message:
 * {@link DeadlineTimeout} says why that pays.
 */
export function timeoutOutcome(timeout: DeadlineTimeout, who: Answering, env: RunEnv): ToolTailEvent {
  if (env.policy !== "continue" || env.encoder !== jsonEncoder) return outcomeOf(error(timeout.error), who, env);
  return answered(who, completedEvent(who, timeoutResult(timeout)), encodedEvent(who, timeout.jsonText, true));
}

/** The result's parts, checked, or the `invalid_return` that says what is wrong with them. */
function checkedParts(parts: unknown, who: CallIdentity, result: HandlerResult): readonly ContentPart[] | ToolError {
  try {
    return checkParts(parts, `the result of tool ${who.toolName}`);
  } catch (e) {
    return new ToolError("invalid_return", {
      message: `tool ${who.toolName} returned content parts that cannot be sent: ${(e as Error).message}`,
      toolName: who.toolName,
      toolCallId: who.toolCallId,
      cause: result,
    });
  }
}

/** Route the error term `term` through the policy; `own` is the handler's own error result, if any. */
function failed(env: RunEnv, who: Answering, term: unknown, own: HandlerResult = error(term)): ToolTailEvent {
  const decision = applyPolicy(env.policy, who, term);
  switch (decision.action) {
    case "continue":
      return answered(who, completedEvent(who, own), encodedEvent(who, errorContent(env, term), true));
    case "replace": {
      const content = encoded(env, decision.value, who);
      if (!(content instanceof ToolError)) {
        return answered(who, completedEvent(who, ok(decision.value)), encodedEvent(who, content, false));
      }
      return answered(who, completedEvent(who, own), haltOnError(env, who, content));
    }
    case "halt":
      return answered(who, completedEvent(who, own), haltOnError(env, who, decision.term));
  }
}

/** Leave `completed` on the call, and return `tail`. */
function answered(who: Answering, completed: ToolExecutionCompleted, tail: ToolTailEvent): ToolTailEvent {
  who.completed = completed;
  return tail;
}

function haltOnError(env: RunEnv, who: CallIdentity, term: unknown): ToolTailEvent {
  return haltEvent(who, "tool_error", term, errorContent(env, term), true);
}

function completedEvent(who: CallIdentity, result: HandlerResult): ToolExecutionCompleted {
  return { type: "tool_execution_completed", index: who.index, toolCallId: who.toolCallId, toolName: who.toolName, result };
}

function encodedEvent(who: CallIdentity, content: string, isError: boolean): ToolResultEncoded {
  return { type: "tool_result_encoded", index: who.index, toolCallId: who.toolCallId, toolName: who.toolName, content, isError };
}

function haltEvent(who: CallIdentity, reason: string, result: unknown, content: string, isError: boolean): ToolHaltEvent {
  return {
    type: "tool_halt",
    index: who.index,
    toolCallId: who.toolCallId,
    toolName: who.toolName,
    reason,
    result,
    content,
    isError,
  };
}

/** `encode(value)`, or the `encoding_failed` error to route when the encoder throws or misbehaves. */
function encoded(env: RunEnv, value: unknown, who: CallIdentity): string | ToolError {
  let content: unknown;
  try {
    content = env.encoder.encode(value);
  } catch (cause) {
    return new ToolError("encoding_failed", { toolName: who.toolName, toolCallId: who.toolCallId, cause });
  }
  if (typeof content === "string") return content;
  return new ToolError("encoding_failed", {
    message: `tool error (${who.toolName}): encoding_failed: the encoder returned ${describe(content)} instead of a string`,
    toolName: who.toolName,
    toolCallId: who.toolCallId,
    cause: content,
  });
}

/**
 * The error text for a term. When a custom `encodeError` throws, the decision already taken
 * stands and the text falls back to `jsonEncoder`'s, so error encoding never loops.
 */
function errorContent(env: RunEnv, term: unknown): string {
  try {
    const content: unknown = env.encoder.encodeError(term);
    if (typeof content === "string") return content;
  } catch {
    // fall back below
  }
  return jsonEncoder.encodeError(term);
}
