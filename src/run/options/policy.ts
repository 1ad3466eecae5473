import type { CallIdentity, ToolCall } from "../../tool/tool-call.js";
import { describe, read, settle, UNREADABLE } from "../../util/safe.js";
import { ToolError } from "../../tool/tool-error.js";

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

const CONTINUE: PolicyOutcome = /* @__PURE__ */ Object.freeze({ action: "continue" });

/**
 * Apply `policy` to the error term `term` of `call`. A function policy that throws or answers
 * anything but `{ continue }` or `"halt"` halts the batch with an `invalid_return` error; it is
 * never asked a second time.
 */
export function applyPolicy(policy: OnToolError, who: CallIdentity, term: unknown): PolicyOutcome {
  if (policy === "continue") return CONTINUE;
  if (policy === "halt") return { action: "halt", term };
  let answer: unknown;
  try {
    answer = policy(who.call, term);
  } catch (thrown) {
    return {
      action: "halt",
      term: new ToolError("invalid_return", {
        message: `onToolError threw while handling tool ${who.toolName}`,
        toolName: who.toolName,
        toolCallId: who.toolCallId,
        cause: thrown,
        metadata: { onToolErrorThrew: true },
      }),
    };
  }
  if (answer === "halt") return { action: "halt", term };
  let problem = `returned ${describe(answer)}`;
  if ((typeof answer === "object" && answer !== null) || typeof answer === "function") {
    const then = read(answer, "then");
    if (typeof then === "function") {
      // The promise is ignored; keep its rejection from surfacing as an unhandled one.
      settle(answer as PromiseLike<unknown>, undefined, ignore, ignore);
      problem = "returned a promise";
    } else if (then === UNREADABLE) {
      problem = `returned ${describe(answer)} that cannot be read`;
    } else if (typeof answer === "object" && ownsContinue(answer)) {
      const value = read(answer, "continue");
      if (value !== UNREADABLE) return { action: "replace", value };
      problem = `returned ${describe(answer)} whose \`continue\` cannot be read`;
    }
  }
  return {
    action: "halt",
    term: new ToolError("invalid_return", {
      message:
        problem === "returned a promise"
          ? `onToolError returned a promise for tool ${who.toolName}; the policy must answer synchronously`
          : `onToolError ${problem} for tool ${who.toolName}; expected { continue: value } or "halt"`,
      toolName: who.toolName,
      toolCallId: who.toolCallId,
      cause: answer,
      metadata: { onToolErrorReturned: true },
    }),
  };
}

/** `Object.hasOwn(answer, "continue")`, false when a Proxy's trap throws. */
function ownsContinue(answer: object): boolean {
  try {
    return Object.hasOwn(answer, "continue");
  } catch {
    return false;
  }
}

function ignore(): void {}
