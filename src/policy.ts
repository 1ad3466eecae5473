import type { ToolCall } from "./tool-call.js";
import { describe, ToolError } from "./tool-error.js";
import { isThenable } from "./results.js";

/** A policy function's answer: replace the error with a success value, or halt the batch. */
export type ToolErrorDecision = { continue: unknown } | "halt";

/**
 * What happens when a call fails (its handler's own error, or a `ToolError`):
 * - `"continue"` (default): the error text becomes the tool message; the batch goes on.
 * - `"halt"`: the batch halts with `haltedReason: "tool_error"`.
 * - a synchronous function `(toolCall, error)`: decides per failure, called at most once per call.
 */
export type OnToolError = "continue" | "halt" | ((toolCall: ToolCall, error: unknown) => ToolErrorDecision);

/** What the runner does with an error term once the policy has spoken. */
export type PolicyOutcome =
  | { readonly action: "continue" }
  | { readonly action: "replace"; readonly value: unknown }
  | { readonly action: "halt"; readonly term: unknown };

const CONTINUE: PolicyOutcome = Object.freeze({ action: "continue" });

/**
 * Apply `policy` to the error term `term` of `call`. A function policy that throws or answers
 * anything but `{ continue }` or `"halt"` halts the batch with an `invalid_return` error; it is
 * never asked a second time.
 */
export function applyPolicy(policy: OnToolError, call: ToolCall, term: unknown): PolicyOutcome {
  if (policy === "continue") return CONTINUE;
  if (policy === "halt") return { action: "halt", term };
  let answer: unknown;
  try {
    answer = policy(call, term);
  } catch (thrown) {
    return {
      action: "halt",
      term: new ToolError("invalid_return", {
        message: `onToolError threw while handling tool ${call.name}`,
        toolName: call.name,
        toolCallId: call.id,
        cause: thrown,
        metadata: { onToolErrorThrew: true },
      }),
    };
  }
  if (answer === "halt") return { action: "halt", term };
  if (typeof answer === "object" && answer !== null && Object.hasOwn(answer, "continue") && !isThenable(answer)) {
    return { action: "replace", value: (answer as { continue: unknown }).continue };
  }
  if (isThenable(answer)) {
    // The promise is ignored; keep its rejection from surfacing as an unhandled one.
    Promise.resolve(answer).catch(() => undefined);
  }
  return {
    action: "halt",
    term: new ToolError("invalid_return", {
      message: isThenable(answer)
        ? `onToolError returned a promise for tool ${call.name}; the policy must answer synchronously`
        : `onToolError returned ${describe(answer)} for tool ${call.name}; expected { continue: value } or "halt"`,
      toolName: call.name,
      toolCallId: call.id,
      cause: answer,
      metadata: { onToolErrorReturned: true },
    }),
  };
}
