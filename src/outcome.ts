import { jsonEncoder } from "./encoder.js";
import type { ToolExecutionCompleted, ToolTailEvent } from "./events.js";
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
 */
export function outcomeOf(returned: unknown, call: ToolCall, index: number, env: RunEnv): Outcome {
  const base = { index, toolCallId: call.id, toolName: call.name };
  if (!isHandlerResult(returned)) {
    return failed(new ToolError("invalid_return", { toolName: call.name, toolCallId: call.id, cause: returned }));
  }
  const result: HandlerResult = returned;
  switch (result.type) {
    case "ok": {
      const content = encoded(env, result.value, call);
      if (content instanceof ToolError) return failed(content);
      return [completed(result), { type: "tool_result_encoded", ...base, content, isError: false }];
    }
    case "ask_user":
      return [
        completed(result),
        { type: "ask_user_requested", ...base, question: result.question, opts: result.opts ?? {} },
      ];
    case "halt": {
      if (isReservedHaltReason(result.reason)) {
        return failed(
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
      if (content instanceof ToolError) return failed(content);
      return [
        completed(result),
        { type: "tool_halt", ...base, reason: result.reason, result: result.result, content, isError: false },
      ];
    }
    case "error":
      return failed(result.reason, result);
  }

  function completed(r: HandlerResult): ToolExecutionCompleted {
    return { type: "tool_execution_completed", ...base, result: r };
  }

  function failed(term: unknown, own: HandlerResult = error(term)): Outcome {
    const decision = applyPolicy(env.policy, call, term);
    if (decision.action === "continue") {
      return [completed(own), { type: "tool_result_encoded", ...base, content: errorContent(env, term), isError: true }];
    }
    if (decision.action === "replace") {
      const content = encoded(env, decision.value, call);
      if (!(content instanceof ToolError)) {
        return [completed(ok(decision.value)), { type: "tool_result_encoded", ...base, content, isError: false }];
      }
      return [completed(own), haltOnError(content)];
    }
    return [completed(own), haltOnError(decision.term)];
  }

  function haltOnError(term: unknown): ToolTailEvent {
    return { type: "tool_halt", ...base, reason: "tool_error", result: term, content: errorContent(env, term), isError: true };
  }
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
