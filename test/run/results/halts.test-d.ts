import { expectTypeOf, test } from "vitest";
import type { HaltMetadata, RunResult } from "../../../src/index.js";

declare const r: RunResult;

test("narrowing on haltedReason reaches the ask_user fields", () => {
  if (r.halt?.haltedReason === "ask_user") {
    // A handler's own reason is any string, so its member stays in the union; its ask-user
    // fields are `never`, which leaves the ask-user member's types (or undefined).
    expectTypeOf(r.halt.pendingQuestion).toEqualTypeOf<string | undefined>();
    expectTypeOf(r.halt.pendingToolCallId).toEqualTypeOf<string | undefined>();
    expectTypeOf(r.halt.askUserOpts).toEqualTypeOf<object | undefined>();
    const question: string = r.halt.pendingQuestion ?? "";
    expectTypeOf(question).toEqualTypeOf<string>();
  }
});

test("narrowing on haltedReason reaches the tool_error and handler fields", () => {
  if (r.halt?.haltedReason === "tool_error") {
    expectTypeOf(r.halt.haltToolCallId).toEqualTypeOf<string>();
    expectTypeOf(r.halt.onToolErrorException).toEqualTypeOf<unknown>();
  }
  if (r.halt?.haltedReason === "budget_exhausted") {
    expectTypeOf(r.halt).toEqualTypeOf<Extract<HaltMetadata, { haltResult: unknown }>>();
    expectTypeOf(r.halt.haltResult).toEqualTypeOf<unknown>();
    expectTypeOf(r.halt.haltToolCallId).toEqualTypeOf<string>();
  }
});

test("a switch over haltedReason type-checks every branch", () => {
  const describe = (halt: HaltMetadata): string => {
    switch (halt.haltedReason) {
      case "ask_user":
        return `asks ${halt.pendingQuestion ?? ""}`;
      case "tool_error":
        return `failed ${halt.haltToolCallId}`;
      default:
        // @ts-expect-error: outside ask_user, the question may be missing
        halt.pendingQuestion.length;
        return `halted: ${halt.haltedReason}`;
    }
  };
  expectTypeOf(describe).returns.toEqualTypeOf<string>();
});

test("halts lists every halt", () => {
  expectTypeOf(r.halts).toEqualTypeOf<HaltMetadata[] | undefined>();
});
