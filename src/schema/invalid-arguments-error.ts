/** One validation problem, in zod's issue shape. */
export interface ArgumentIssue {
  /** zod's issue code (`invalid_type`, `too_small`, ...), or `invalid_json`. */
  readonly code: string;
  /** Where in the arguments: `["address", "city"]`; `[]` for the arguments as a whole. */
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/**
 * The reason of the error result a call gets when its arguments do not match the tool's schema
 * (or were not valid JSON). It is deliberately not a `ToolError`: that set of reasons stays
 * closed. The message names each wrong field so a model can correct its call.
 *
 * @example
 * // for `weather({ city: 42 })`:
 * e.message; // 'Invalid arguments for tool "weather": city: Invalid input: expected string, received number'
 * e.issues;  // [{ code: "invalid_type", path: ["city"], message: "Invalid input: expected string, received number" }]
 */
export class InvalidArgumentsError extends Error {
  override readonly name = "InvalidArgumentsError";
  readonly toolName: string;
  readonly issues: readonly ArgumentIssue[];

  constructor(toolName: string, issues: readonly ArgumentIssue[]) {
    super(`Invalid arguments for tool "${toolName}": ${issues.map(formatIssue).join("; ")}`);
    this.toolName = toolName;
    this.issues = issues;
  }
}

function formatIssue(issue: ArgumentIssue): string {
  return issue.path.length === 0 ? issue.message : `${issue.path.map(String).join(".")}: ${issue.message}`;
}
