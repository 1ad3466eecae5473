/** The small oracles of the runner's property tests: encodings, names for messages, the error terms a call routes. */
import { expect } from "vitest";
import { isToolError, type ToolCall, type ToolErrorReason } from "../../../src/index.js";
import type { ToolMessage } from "../../../src/tool/message.js";

import type { Behaviour } from "./arbitraries.js";
import type { Harness } from "./harness.js";

// ---------------------------------------------------------------------------------------------
// Oracles
// ---------------------------------------------------------------------------------------------

/** What `jsonEncoder.encode` gives, or `undefined` when it must throw (§5). */
export function encodingOf(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  try {
    const text: unknown = JSON.stringify(value);
    return typeof text === "string" ? text : undefined;
  } catch {
    return undefined;
  }
}

export function show(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "function") return "a function";
  if (value instanceof Error) return `Error(${JSON.stringify(value.message)})`;
  return encodingOf(value) ?? String(value);
}

export function describeBehaviour(b: Behaviour): string {
  switch (b.kind) {
    case "ok":
      return `ok(${show(b.value)}) ${b.timing === "sync" ? "sync" : "async"}`;
    case "error":
      return `error(${show(b.reason)}) ${b.timing === "sync" ? "sync" : "async"}`;
    case "throw":
      return `throws ${show(b.thrown)} ${b.timing === "sync" ? "sync" : "async"}`;
    case "invalid":
      return `returns ${show(b.value)} ${b.timing === "sync" ? "sync" : "async"}`;
    case "askUser":
    case "halt":
    case "reservedHalt":
      return `${b.kind} ${b.timing === "sync" ? "sync" : "async"}`;
    default:
      return b.kind;
  }
}

/** The error term E a call must route through the policy. */
export type TermExpectation =
  | { readonly own: true }
  | { readonly toolError: ToolErrorReason; readonly check: (e: ToolErrorLike) => void }
  | { readonly invalidArguments: true };

export type ToolErrorLike = {
  reason: ToolErrorReason;
  toolName?: string;
  toolCallId?: string;
  cause?: unknown;
  metadata: Record<string, unknown>;
  message: string;
};
/** Calls whose handler settled but whose result came after the deadline, answered `timeout`. */
export function lateTimeouts(h: Harness, messages: readonly ToolMessage[]): number[] {
  const late: number[] = [];
  messages.forEach((m, i) => {
    const kind = h.spec.behaviours[i]?.kind;
    if (kind === "slow" || kind === "never" || kind === "late") return;
    const term = h.policyCalls[i]?.[0]?.error;
    if ((isToolError(term) && term.reason === "timeout") || m.content.includes("timed out after")) late.push(i);
  });
  return late;
}

export function policyName(h: Harness, i: number): string {
  const { policy } = h.spec;
  if (policy.kind !== "fn") return `"${policy.kind}"`;
  const d = h.decisionFor(i);
  switch (d.kind) {
    case "continue":
      return `fn → { continue: ${show(d.value)} }`;
    case "halt":
      return `fn → "halt"`;
    case "throw":
      return `fn throws ${show(d.thrown)}`;
    case "garbage":
      return `fn → ${d.label}`;
  }
}

export function baseOf(h: Harness, i: number): { index: number; toolCallId: string; toolName: string } {
  const call = h.calls[i] as ToolCall;
  return { index: i, toolCallId: call.id, toolName: call.name };
}

export function asToolError(value: unknown, where: string): ToolErrorLike {
  expect(isToolError(value), `${where}: ${show(value)} is a ToolError`).toBe(true);
  return value as ToolErrorLike;
}
