import { isRecord, kindOf } from "../shape.js";
import type { IssueList } from "./conversation-issue.js";

/** A message (or item, or block) that is an object, or an `invalid_type` issue at `path`. */
export function recordAt(value: unknown, path: readonly (string | number)[], what: string, issues: IssueList): Record<string, unknown> | undefined {
  if (isRecord(value)) return value;
  issues.add("invalid_type", path, `Expected ${what} to be an object, got ${kindOf(value)}`);
  return undefined;
}

/** A field that must be a string (non-empty when `nonEmpty`), or an `invalid_type` issue at its path. */
export function stringAt(
  owner: Record<string, unknown>,
  key: string,
  path: readonly (string | number)[],
  issues: IssueList,
  nonEmpty = false,
): string | undefined {
  const value = owner[key];
  if (typeof value === "string" && (!nonEmpty || value !== "")) return value;
  issues.add("invalid_type", [...path, key], `Expected \`${key}\` to be a ${nonEmpty ? "non-empty " : ""}string, got ${value === "" ? '""' : kindOf(value)}`);
  return undefined;
}
