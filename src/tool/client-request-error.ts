import type { ArgumentIssue } from "../schema/invalid-arguments-error.js";

/**
 * Why `ctx.askUser` or `ctx.sample` could not get an answer: `no_client`, nothing in this run can
 * ask (a plain run has no client model; a worker thread has no client); `not_supported`, the
 * client did not declare the capability (MCP `elicitation.form`, `sampling`); `invalid_answer`,
 * the client answered something that is not an answer (a form's content against its schema,
 * listed in `issues`); `failed`, the request itself failed (see `cause`).
 */
export type ClientRequestReason = "no_client" | "not_supported" | "invalid_answer" | "failed";

/**
 * The one error `ctx.askUser` and `ctx.sample` reject with, besides the call's own abort. Thrown
 * out of the handler it is the call's `handler_raised`, its message for the model.
 *
 * @example
 * new ClientRequestError("sample", "not_supported").message;
 * // "ctx.sample: the client does not support it (MCP sampling was not declared)"
 */
export class ClientRequestError extends Error {
  override readonly name = "ClientRequestError";
  readonly feature: "ask_user" | "sample";
  readonly reason: ClientRequestReason;
  /** For `invalid_answer` of a form: what is wrong with the content, in zod's shape. */
  readonly issues: readonly ArgumentIssue[];

  constructor(
    feature: "ask_user" | "sample",
    reason: ClientRequestReason,
    options: { issues?: readonly ArgumentIssue[]; cause?: unknown; detail?: string } = {},
  ) {
    super(`ctx.${feature === "ask_user" ? "askUser" : "sample"}: ${options.detail ?? defaultText(feature, reason, options.issues ?? [])}`, {
      cause: options.cause,
    });
    this.feature = feature;
    this.reason = reason;
    this.issues = options.issues ?? [];
  }
}

function defaultText(feature: "ask_user" | "sample", reason: ClientRequestReason, issues: readonly ArgumentIssue[]): string {
  const what = feature === "ask_user" ? "MCP form elicitation" : "MCP sampling";
  switch (reason) {
    case "no_client":
      return feature === "ask_user" ? "no client can answer during this call" : "this run has no client model to ask";
    case "not_supported":
      return `the client does not support it (${what} was not declared)`;
    case "invalid_answer":
      return `the client's answer does not match the form: ${issues.map((i) => `${i.path.map(String).join(".") || "(root)"}: ${i.message}`).join("; ")}`;
    case "failed":
      return "the request to the client failed";
  }
}
