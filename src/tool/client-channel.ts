import type { SampleRequest } from "./sampling.js";
import type { UserForm } from "./user-form.js";

/**
 * What a host that stands between the run and a client gives the runner, so that a handler can
 * ask the client during its call (`ctx.askUser`, `ctx.sample`): `serveTools` gives one per MCP
 * request. A method left out means the host cannot ask that (`ctx.askUser` then halts the call
 * with `ask_user` as before; `ctx.sample` rejects `no_client`). Each method resolves the client's
 * raw answer, which the runner checks; it rejects with a `ClientRequestError` when the client
 * cannot be asked, or with a `UserInputRequired` when the question must end the call (to be
 * answered when it is made again).
 */
export interface ClientChannel {
  /** Put `form` to the client's user; resolves `{ action, content? }` as the client answered. */
  askUser?(form: UserForm, signal: AbortSignal): Promise<unknown>;
  /** Ask the client's model; resolves its reply as the client sent it (MCP's `CreateMessageResult`). */
  sample?(request: SampleRequest, signal: AbortSignal): Promise<unknown>;
}
