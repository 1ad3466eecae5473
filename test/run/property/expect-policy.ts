/** The runner's property tests' oracle of what `onToolError` made of a call's error term, and the messages and halt that follow. */
import { expect } from "vitest";
import {
  AWAITING_USER_RESPONSE,
  error,
  InvalidArgumentsError,
  isToolError,
  jsonEncoder,
  ok,
  type HaltMetadata,
  type ToolCall,
  type ToolExecutionCompleted,
  type ToolTailEvent,
} from "../../../src/index.js";
import type { ToolMessage } from "../../../src/tool/message.js";

import { type Harness, CONTINUE_AS_ERROR } from "./harness.js";
import { asToolError, baseOf, encodingOf, type TermExpectation } from "./oracle-terms.js";

/** A call whose executor result is the error term E: check E, then what the policy made of it. */
export function expectPolicy(h: Harness, i: number, completed: ToolExecutionCompleted, tail: ToolTailEvent, where: string, term: TermExpectation): void {
  const call = h.calls[i] as ToolCall;
  const rec = h.handlers[i]?.[0];
  const isFn = h.spec.policy.kind === "fn";
  const policyCalls = h.policyCalls[i] ?? [];
  if (isFn) expect(policyCalls, `${where}: a policy function is called exactly once`).toHaveLength(1);
  else expect(policyCalls, where).toHaveLength(0);
  const E: unknown = completed.result.type === "error" ? completed.result.reason : policyCalls[0]?.error;

  // E itself.
  if ("own" in term) {
    expect(E, `${where}: a handler's own error reason passes through unchanged`).toBe((rec?.returned as { reason?: unknown } | undefined)?.reason);
  } else if ("invalidArguments" in term) {
    expect(E, `${where}: invalid arguments answer an InvalidArgumentsError`).toBeInstanceOf(InvalidArgumentsError);
    expect(isToolError(E), `${where}: ... which is not a ToolError`).toBe(false);
    const issues = (E as InvalidArgumentsError).issues;
    expect(
      issues.some((issue) => issue.path[0] === "n"),
      `${where}: the issues name the wrong field`,
    ).toBe(true);
  } else {
    const e = asToolError(E, where);
    expect(e.reason, `${where}: ToolError reason`).toBe(term.toolError);
    expect(e.toolName, `${where}: ToolError toolName`).toBe(call.name);
    expect(e.toolCallId, `${where}: ToolError toolCallId`).toBe(call.id);
    term.check(e);
  }
  if (isFn) {
    expect(policyCalls[0]?.call, `${where}: the policy gets the call`).toBe(call);
    expect(policyCalls[0]?.error, `${where}: the policy gets E`).toBe(E);
  }

  const ownCompleted = () => {
    if ("own" in term) expect(completed.result, `${where}: completed.result is the handler's own error result`).toBe(rec?.returned);
    else expect(completed.result, `${where}: completed.result is error(E)`).toStrictEqual(error(E));
  };
  const haltWith = (result: unknown) => {
    ownCompleted();
    expect(tail, `${where}: the policy halts`).toStrictEqual({
      ...baseOf(h, i),
      type: "tool_halt",
      reason: "tool_error",
      result,
      content: jsonEncoder.encodeError(result),
      isError: true,
    });
    if (tail.type === "tool_halt") expect(tail.result, `${where}: the halt carries the error term`).toBe(result);
  };
  const tailResult = tail.type === "tool_halt" ? tail.result : undefined;

  const d = h.decisionFor(i);
  switch (d.kind) {
    case "continue": {
      if (d.value === CONTINUE_AS_ERROR) {
        ownCompleted();
        expect(tail, `${where}: "continue" answers the error text`).toStrictEqual({
          ...baseOf(h, i),
          type: "tool_result_encoded",
          content: jsonEncoder.encodeError(E),
          isError: true,
        });
        return;
      }
      const text = encodingOf(d.value);
      if (text !== undefined) {
        expect(completed.result, `${where}: { continue: r } completes as ok(r)`).toStrictEqual(ok(d.value));
        expect((completed.result as { value?: unknown }).value, where).toBe(d.value);
        expect(tail, `${where}: { continue: r } answers encode(r)`).toStrictEqual({
          ...baseOf(h, i),
          type: "tool_result_encoded",
          content: text,
          isError: false,
        });
        return;
      }
      const e = asToolError(tailResult, `${where}: an unencodable { continue: r } halts with encoding_failed`);
      expect(e.reason, `${where}: an unencodable { continue: r } halts with encoding_failed`).toBe("encoding_failed");
      haltWith(tailResult);
      return;
    }
    case "halt":
      haltWith(E);
      return;
    case "throw": {
      const e = asToolError(tailResult, `${where}: a throwing policy halts with invalid_return`);
      expect(e.reason, `${where}: a throwing policy halts with invalid_return`).toBe("invalid_return");
      expect(e.metadata.onToolErrorThrew, `${where}: metadata.onToolErrorThrew`).toBe(true);
      expect(e.cause, `${where}: cause is what the policy threw`).toBe(d.thrown);
      haltWith(tailResult);
      return;
    }
    case "garbage": {
      const e = asToolError(tailResult, `${where}: a policy answering ${d.label} halts with invalid_return`);
      expect(e.reason, `${where}: a policy answering ${d.label} halts with invalid_return`).toBe("invalid_return");
      expect(e.metadata.onToolErrorThrew, where).not.toBe(true);
      haltWith(tailResult);
      return;
    }
  }
}

/** The message a tail event stands for (§6). */
export function messageOf(tail: ToolTailEvent): ToolMessage {
  const ask = tail.type === "ask_user_requested";
  return {
    role: "tool",
    toolCallId: tail.toolCallId,
    name: tail.toolName,
    content: ask ? AWAITING_USER_RESPONSE : tail.content,
    isError: ask ? false : tail.isError,
  };
}

/** The halt of the lowest-index call whose tail halts, per `HaltMetadata`. */
export function expectedHalt(h: Harness, tails: readonly ToolTailEvent[]): HaltMetadata | undefined {
  for (const tail of tails) {
    if (tail.type === "ask_user_requested") {
      return { haltedReason: "ask_user", pendingQuestion: tail.question, pendingToolCallId: tail.toolCallId, askUserOpts: tail.opts };
    }
    if (tail.type === "tool_halt") {
      if (tail.reason !== "tool_error") return { haltedReason: tail.reason, haltToolCallId: tail.toolCallId, haltResult: tail.result };
      const d = h.decisionFor(tail.index);
      return d.kind === "throw"
        ? { haltedReason: "tool_error", haltToolCallId: tail.toolCallId, onToolErrorException: d.thrown }
        : { haltedReason: "tool_error", haltToolCallId: tail.toolCallId };
    }
  }
  return undefined;
}
