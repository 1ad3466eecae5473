import { describe, expect, it } from "vitest";
import { APPROVAL_MISMATCH_REASONS, ApprovalMismatchError } from "../../src/index.js";

describe("ApprovalMismatchError", () => {
  it.each([
    ["token_missing", "carries no token, and approvals need one"],
    ["token_invalid", "carries a token that was not issued for this call as it stands"],
    ["conversation_mismatch", "carries a token issued in another conversation"],
    ["token_expired", "carries a token that has expired"],
    ["not_pending", "names no call awaiting a decision"],
    ["already_used", "was used already"],
    ["arguments_invalid", "edits the arguments into ones the tool's schema refuses"],
  ] as const)("%s says why in its message", (reason, text) => {
    const e = new ApprovalMismatchError(reason, "c1", { index: 2 });
    expect(e).toBeInstanceOf(Error);
    expect({ name: e.name, message: e.message, reason: e.reason, toolCallId: e.toolCallId, metadata: e.metadata, cause: e.cause }).toEqual({
      name: "ApprovalMismatchError",
      message: `the decision on tool call "c1" ${text}`,
      reason,
      toolCallId: "c1",
      metadata: { index: 2 },
      cause: undefined,
    });
    expect("cause" in e).toBe(false);
  });

  it("keeps a cause when given one, and empty metadata by default", () => {
    const cause = new Error("schema");
    const e = new ApprovalMismatchError("arguments_invalid", "c1", undefined, cause);
    expect([e.cause, e.metadata]).toEqual([cause, {}]);
  });

  it("has one message per reason of the closed, frozen set", () => {
    expect(APPROVAL_MISMATCH_REASONS).toHaveLength(7);
    expect(Object.isFrozen(APPROVAL_MISMATCH_REASONS)).toBe(true);
  });
});
