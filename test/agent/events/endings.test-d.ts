import type { Observable } from "rxjs";
import { expectTypeOf, test } from "vitest";
import { runAgent, streamAgent, type AgentEvent, type AgentResult, type PendingApproval, type PendingQuestion, type ToolCall } from "../../../src/index.js";
import { scriptedModel } from "../../../src/testing/index.js";

// Issue 20, finding 11: endings narrow on the loop's own reasons; a handler's halt has its branch.

declare const r: AgentResult;

test("haltedReason narrows metadata to that reason's shape", () => {
  if (r.haltedReason === "approval_required") expectTypeOf(r.metadata.pendingApprovals).toEqualTypeOf<readonly PendingApproval[]>();
  if (r.haltedReason === "ask_user") {
    expectTypeOf(r.metadata.pendingQuestion).toEqualTypeOf<string>();
    expectTypeOf(r.metadata.pendingQuestions).toEqualTypeOf<readonly PendingQuestion[]>();
    // The turn's other pending work, when there is some.
    expectTypeOf(r.metadata.pendingApprovals).toEqualTypeOf<readonly PendingApproval[] | undefined>();
  }
  if (r.haltedReason === "manual_tool_calls") expectTypeOf(r.metadata.manualToolCalls).toEqualTypeOf<readonly ToolCall[]>();
  if (r.haltedReason === "completed") expectTypeOf(r.metadata.finishReason).toEqualTypeOf<"stop" | "length" | "content_filter">();
  if (r.haltedReason === "max_turns") expectTypeOf(r.metadata.maxTurns).toEqualTypeOf<number>();
  if (r.haltedReason === "error") expectTypeOf(r.metadata.error).toEqualTypeOf<unknown>();
});

test("a typo in a reason does not compile", () => {
  // @ts-expect-error: there is no such reason
  if (r.haltedReason === "approval-required") return;
});

test("a switch over the loop's reasons is exhaustive", () => {
  const label = (e: AgentResult): string => {
    switch (e.haltedReason) {
      case "ask_user":
      case "tool_error":
      case "approval_required":
      case "manual_tool_calls":
      case "completed":
      case "error":
      case "halt_when":
      case "max_turns":
      case "cancelled":
        return e.haltedReason;
      default: {
        const none: never = e;
        return none;
      }
    }
  };
  expectTypeOf(label).returns.toEqualTypeOf<string>();
});

test("a handler's own reasons, named as the type argument, get their own branch", async () => {
  const model = scriptedModel([]);
  const result = await runAgent<"budget" | "limit">({ model, tools: [], messages: [] });
  if (result.haltedReason === "budget") {
    expectTypeOf(result.metadata.haltToolCallId).toEqualTypeOf<string>();
    expectTypeOf(result.metadata.haltResult).toEqualTypeOf<unknown>();
  }
  if (result.haltedReason === "approval_required") expectTypeOf(result.metadata.pendingApprovals).toEqualTypeOf<readonly PendingApproval[]>();
  // @ts-expect-error: "other" was not named
  if (result.haltedReason === "other") return;
});

test("agent_halted narrows the same way", () => {
  expectTypeOf(streamAgent<"budget">({ model: scriptedModel([]), tools: [], messages: [] })).toEqualTypeOf<Observable<AgentEvent<"budget">>>();
  const on = (e: AgentEvent) => {
    if (e.type === "agent_halted" && e.haltedReason === "approval_required")
      expectTypeOf(e.metadata.pendingApprovals).toEqualTypeOf<readonly PendingApproval[]>();
  };
  expectTypeOf(on).toBeFunction();
});
