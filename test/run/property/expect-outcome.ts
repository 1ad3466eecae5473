/** The runner's property tests' oracle of one call's outcome (CONTRACT.md §2, §4, §6). */
import { expect } from "vitest";
import { isToolError, type ToolExecutionCompleted, type ToolTailEvent } from "../../../src/index.js";

import type { Behaviour } from "./arbitraries.js";
import type { Harness } from "./harness.js";
import { baseOf, describeBehaviour, encodingOf, policyName } from "./oracle-terms.js";
import { expectPolicy } from "./expect-policy.js";

/**
 * The executor result, the policy's decision and the tail event of call `i`, against §2, §4
 * and §6's outcome table.
 */
export function expectOutcome(h: Harness, i: number, completed: ToolExecutionCompleted, tail: ToolTailEvent): void {
  const b = h.spec.behaviours[i] as Behaviour;
  const where = `call ${i} (${describeBehaviour(b)}, policy ${policyName(h, i)})`;
  const records = h.handlers[i] ?? [];
  if (b.kind === "badArgs") expect(records, `${where}: invalid arguments never reach the handler`).toHaveLength(0);
  else expect(records, `${where}: the handler runs exactly once`).toHaveLength(1);
  const rec = records[0];

  // A result that arrives after the deadline answers `timeout` with `metadata.settled: true`
  // (issue 9.10). With deadlines of 5–25 ms on a shared machine, even a sync or microtask
  // handler can see the event loop held past its deadline; its late result must then lose.
  const term = h.policyCalls[i]?.[0]?.error ?? (completed.result.type === "error" ? completed.result.reason : undefined);
  if (b.kind !== "badArgs" && isToolError(term) && term.reason === "timeout" && term.metadata.settled === true) {
    expectPolicy(h, i, completed, tail, where, {
      toolError: "timeout",
      check: () => expect(rec?.settledAt, `${where}: a late timeout is one whose handler settled`).toBeDefined(),
    });
    return;
  }

  const success = (content: string | undefined, tailType: ToolTailEvent["type"]): boolean => {
    if (content === undefined) return false;
    expect(h.policyCalls[i], `${where}: the policy is not consulted on success`).toHaveLength(0);
    expect(completed.result, `${where}: completed.result is the handler's own result`).toBe(rec?.returned);
    expect(tail.type, `${where}: tail event`).toBe(tailType);
    return true;
  };

  switch (b.kind) {
    case "ok": {
      if (success(encodingOf(b.value), "tool_result_encoded")) {
        expect(tail, where).toStrictEqual({ ...baseOf(h, i), type: "tool_result_encoded", content: encodingOf(b.value), isError: false });
        return;
      }
      expectPolicy(h, i, completed, tail, where, { toolError: "encoding_failed", check: () => undefined });
      return;
    }
    case "askUser":
      success("", "ask_user_requested");
      expect(tail, where).toStrictEqual({ ...baseOf(h, i), type: "ask_user_requested", question: b.question, opts: b.opts ?? {} });
      if (b.opts !== undefined && tail.type === "ask_user_requested") expect(tail.opts, `${where}: opts passed through`).toBe(b.opts);
      return;
    case "halt": {
      if (success(encodingOf(b.result), "tool_halt")) {
        expect(tail, where).toStrictEqual({
          ...baseOf(h, i),
          type: "tool_halt",
          reason: b.reason,
          result: b.result,
          content: encodingOf(b.result),
          isError: false,
        });
        if (tail.type === "tool_halt") expect(tail.result, `${where}: the halt's result`).toBe(b.result);
        return;
      }
      expectPolicy(h, i, completed, tail, where, { toolError: "encoding_failed", check: () => undefined });
      return;
    }
    case "reservedHalt":
      expectPolicy(h, i, completed, tail, where, {
        toolError: "invalid_return",
        check: (e) => {
          expect(e.metadata.reservedHaltReason, `${where}: metadata.reservedHaltReason`).toBe(b.reason);
          expect(e.message, `${where}: the message says "reserved"`).toMatch(/reserved/);
        },
      });
      return;
    case "error":
      expectPolicy(h, i, completed, tail, where, { own: true });
      return;
    case "throw":
      expectPolicy(h, i, completed, tail, where, {
        toolError: "handler_raised",
        check: (e) => {
          if (b.thrown instanceof Error) expect(e.cause, `${where}: cause is the thrown Error`).toBe(b.thrown);
          else expect(e.cause, `${where}: a non-Error throw is kept as { thrown }`).toStrictEqual({ thrown: b.thrown });
        },
      });
      return;
    case "invalid":
      expectPolicy(h, i, completed, tail, where, {
        toolError: "invalid_return",
        check: (e) => expect(e.cause, `${where}: cause is the offending value`).toBe(b.value),
      });
      return;
    case "badArgs":
      expectPolicy(h, i, completed, tail, where, { invalidArguments: true });
      return;
    case "slow":
    case "never":
    case "late":
      expectPolicy(h, i, completed, tail, where, {
        toolError: "timeout",
        check: (e) => {
          expect(rec?.signal.aborted, `${where}: a deadline aborts ctx.signal`).toBe(true);
          expect(rec?.signal.reason, `${where}: ... with the timeout ToolError as its reason`).toBe(e);
        },
      });
      return;
  }
}
