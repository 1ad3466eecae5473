import { jsonEncoder } from "./encoder.js";
import type { ToolExecutionCompleted, ToolHaltEvent, ToolResultEncoded, ToolTailEvent } from "./events.js";
import type { RunEnv } from "./options.js";
import { applyPolicy } from "./policy.js";
import { error, isHandlerResult, isReservedHaltReason, ok, type HandlerResult } from "./results.js";
import type { ToolCall } from "./tool-call.js";
import { describe, ToolError } from "./tool-error.js";

/** A call's last two events, decided together because the completed result depends on the policy. */
export type Outcome = readonly [ToolExecutionCompleted, ToolTailEvent];

/**
 * Turn what the executor returned into the call's `completed` and tail events: encode
 * successes and halts, route every failure (the handler's own, a reserved halt, an encoder
 * failure) through the `onToolError` policy exactly once.
 *
 * Runs once per call, so it is written for the hot path: no closures, no object spreads, and
 * events built as literals of one shape each.
 */
export function outcomeOf(returned: unknown, call: ToolCall, index: number, env: RunEnv): Outcome {
  if (!isHandlerResult(returned)) {
    return failed(env, call, index, new ToolError("invalid_return", { toolName: call.name, toolCallId: call.id, cause: returned }));
  }
  const result: HandlerResult = returned;
  switch (result.type) {
    case "ok": {
      const content = encoded(env, result.value, call);
      if (content instanceof ToolError) return failed(env, call, index, content);
      return [completedEvent(call, index, result), encodedEvent(call, index, content, false)];
    }
    case "ask_user":
      return [
        completedEvent(call, index, result),
        {
          type: "ask_user_requested",
          index,
          toolCallId: call.id,
          toolName: call.name,
          question: result.question,
          opts: result.opts ?? {},
        },
      ];
    case "halt": {
      if (isReservedHaltReason(result.reason)) {
        return failed(
          env,
          call,
          index,
          new ToolError("invalid_return", {
            message: `tool ${call.name} halted with the reserved reason "${result.reason}"; reserved halt reasons belong to the orchestrator`,
            toolName: call.name,
            toolCallId: call.id,
            cause: result,
            metadata: { reservedHaltReason: result.reason },
          }),
        );
      }
      const content = encoded(env, result.result, call);
      if (content instanceof ToolError) return failed(env, call, index, content);
      return [completedEvent(call, index, result), haltEvent(call, index, result.reason, result.result, content, false)];
    }
    case "error":
      return failed(env, call, index, result.reason, result);
  }
}

/** Route the error term `term` through the policy; `own` is the handler's own error result, if any. */
function failed(env: RunEnv, call: ToolCall, index: number, term: unknown, own: HandlerResult = error(term)): Outcome {
  const decision = applyPolicy(env.policy, call, term);
  if (decision.action === "continue") {
    return [completedEvent(call, index, own), encodedEvent(call, index, errorContent(env, term), true)];
  }
  if (decision.action === "replace") {
    const content = encoded(env, decision.value, call);
    if (!(content instanceof ToolError)) {
      return [completedEvent(call, index, ok(decision.value)), encodedEvent(call, index, content, false)];
    }
    return [completedEvent(call, index, own), haltOnError(env, call, index, content)];
  }
  return [completedEvent(call, index, own), haltOnError(env, call, index, decision.term)];
}

function haltOnError(env: RunEnv, call: ToolCall, index: number, term: unknown): ToolTailEvent {
  return haltEvent(call, index, "tool_error", term, errorContent(env, term), true);
}

function completedEvent(call: ToolCall, index: number, result: HandlerResult): ToolExecutionCompleted {
  return { type: "tool_execution_completed", index, toolCallId: call.id, toolName: call.name, result };
}

function encodedEvent(call: ToolCall, index: number, content: string, isError: boolean): ToolResultEncoded {
  return { type: "tool_result_encoded", index, toolCallId: call.id, toolName: call.name, content, isError };
}

function haltEvent(
  call: ToolCall,
  index: number,
  reason: string,
  result: unknown,
  content: string,
  isError: boolean,
): ToolHaltEvent {
  return { type: "tool_halt", index, toolCallId: call.id, toolName: call.name, reason, result, content, isError };
}

/** `encode(value)`, or the `encoding_failed` error to route when the encoder throws or misbehaves. */
function encoded(env: RunEnv, value: unknown, call: ToolCall): string | ToolError {
  let content: unknown;
  try {
    content = env.encoder.encode(value);
  } catch (cause) {
    return new ToolError("encoding_failed", { toolName: call.name, toolCallId: call.id, cause });
  }
  if (typeof content === "string") return content;
  return new ToolError("encoding_failed", {
    message: `tool error (${call.name}): encoding_failed: the encoder returned ${describe(content)} instead of a string`,
    toolName: call.name,
    toolCallId: call.id,
    cause: content,
  });
}

/**
 * The error text for a term. When a custom `encodeError` throws, the decision already taken
 * stands and the text falls back to `jsonEncoder`'s, so error encoding never loops.
 */
function errorContent(env: RunEnv, term: unknown): string {
  if (env.encoder !== jsonEncoder) {
    try {
      const content: unknown = env.encoder.encodeError(term);
      if (typeof content === "string") return content;
    } catch {
      // fall back below
    }
  }
  return jsonEncoder.encodeError(term);
}
