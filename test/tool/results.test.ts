import { describe, expect, it } from "vitest";
import { askUser, error, halt, isHandlerResult, ok, RESERVED_HALT_REASONS } from "../../src/index.js";

describe("result constructors", () => {
  it("build the contract's shapes", () => {
    expect(ok({ a: 1 })).toEqual({ type: "ok", value: { a: 1 } });
    expect(error("nope")).toEqual({ type: "error", reason: "nope" });
    expect(askUser("Which city?")).toEqual({ type: "ask_user", question: "Which city?", opts: {} });
    expect(askUser("Which city?", { choices: ["a"] })).toEqual({ type: "ask_user", question: "Which city?", opts: { choices: ["a"] } });
    expect(halt("done_early", 42)).toEqual({ type: "halt", reason: "done_early", result: 42 });
  });
});

describe("isHandlerResult", () => {
  it.each([
    ok(1),
    ok(undefined),
    error(new Error("x")),
    askUser("q"),
    { type: "ask_user", question: "q" },
    halt("r", null),
    { type: "ok", value: 1, extra: true },
  ])("accepts %j", (value) => {
    expect(isHandlerResult(value)).toBe(true);
  });

  it.each([
    42,
    undefined,
    null,
    "ok",
    { type: "ok" },
    { type: "error" },
    { type: "ask_user", question: 42 },
    { type: "ask_user", question: "q", opts: null },
    { type: "halt", reason: 1, result: 1 },
    { type: "halt", reason: "r" },
    { type: "success", value: 1 },
  ])("rejects %j", (value) => {
    expect(isHandlerResult(value)).toBe(false);
  });
});

describe("RESERVED_HALT_REASONS", () => {
  it("lists the orchestrator's reasons and cannot be changed", () => {
    expect([...RESERVED_HALT_REASONS]).toEqual([
      "ask_user",
      "max_turns",
      "halt_when",
      "tool_error",
      "cancelled",
      "completed",
      "approval_required",
      "manual_tool_calls",
      "error",
    ]);
    expect(Object.isFrozen(RESERVED_HALT_REASONS)).toBe(true);
  });
});
