import type { InferArguments, JsonSchema, ToolSchema } from "../schema/types.js";

/**
 * The user's answer to a form a handler asked with `ctx.askUser`: the form accepted, with its
 * content validated against the handler's schema (defaults applied) and typed by it, or declined,
 * or dismissed. Closed: a handler that switches on `action` has every case.
 *
 * @example
 * const answer = await ctx.askUser("Which plan?", z.object({ plan: z.enum(["free", "pro"]) }));
 * if (answer.action === "accept") console.log(answer.content.plan); // "pro"
 */
export type UserAnswer<T> = { readonly action: "accept"; readonly content: T } | { readonly action: "decline" } | { readonly action: "cancel" };

/** The answer type of a form whose schema is `S`. */
export type UserAnswerOf<S extends ToolSchema> = UserAnswer<InferArguments<S>>;

/**
 * A form as the host receives it: the question, and the JSON Schema of the answer (a flat object
 * of strings, numbers, integers, booleans and enums, with their `title`, `description`, `default`,
 * as MCP form elicitation restricts it; the schema's own keywords are passed as written).
 */
export interface UserForm {
  readonly question: string;
  readonly schema: JsonSchema;
}

/**
 * Thrown by `ctx.askUser` when no host can answer during the call (a plain `runToolCalls`, the
 * agent loop): the default executor answers the call with `askUser(question, { form })`, the
 * `ask_user` halt toolrx has always had, with the form beside the question for the UI. A handler
 * that catches errors around `ctx.askUser` should let this one through.
 */
export class UserInputRequired extends Error {
  override readonly name = "UserInputRequired";
  /** The form to put to the user. */
  readonly form: UserForm;
  /** What the host adds to the question's `opts` beside `form` (an MCP server's key for the answer). */
  readonly opts: Readonly<Record<string, unknown>>;

  constructor(form: UserForm, opts: Readonly<Record<string, unknown>> = {}) {
    super(`The tool asked the user: ${form.question}`);
    this.form = form;
    this.opts = opts;
  }
}
