import { ClientRequestError, type ClientChannel, type SampleRequest, type UserForm } from "../../index.js";
import { isPlainRecord } from "../../util/safe.js";
import { SDK_TIMEOUT_OFF, type McpRequestContext } from "../wire/index.js";
import { canElicit } from "./serve-approval.js";

/**
 * The channel of one `tools/call` to its client: a handler's `ctx.askUser` is an
 * `elicitation/create` form and its `ctx.sample` a `sampling/createMessage`, each a request
 * related to the call (so over Streamable HTTP it rides the call's own stream), each only when
 * the client declared the capability. The SDK's own request timeout is set out of the way: the
 * call's deadlines decide, through the signal. On revision 2026-07-28, which has no
 * server-to-client requests, there is no channel: a question ends the call as `ask_user`, and
 * `ctx.sample` rejects `no_client`.
 */
export function clientChannelOf(rctx: McpRequestContext): ClientChannel | undefined {
  if (rctx.inputRequired) return undefined;
  return {
    askUser: async (form: UserForm, signal: AbortSignal) => {
      if (!canElicit(rctx.clientCapabilities())) throw new ClientRequestError("ask_user", "not_supported");
      const params = { mode: "form", message: form.question, requestedSchema: form.schema };
      return await asked("ask_user", () => rctx.elicit(params, { signal, timeout: SDK_TIMEOUT_OFF }), signal);
    },
    sample: async (request: SampleRequest, signal: AbortSignal) => {
      const capabilities = rctx.clientCapabilities();
      if (!isPlainRecord(capabilities) || !isPlainRecord(capabilities.sampling)) throw new ClientRequestError("sample", "not_supported");
      return await asked("sample", () => rctx.sample(samplingParams(request), { signal, timeout: SDK_TIMEOUT_OFF }), signal);
    },
  };
}

/** MCP's `sampling/createMessage` params for a {@link SampleRequest}. */
function samplingParams(request: SampleRequest): Record<string, unknown> {
  const params: Record<string, unknown> = {
    messages: request.messages.map((m) => ({ role: m.role, content: { type: "text", text: m.content } })),
    maxTokens: request.maxTokens,
  };
  if (request.systemPrompt !== undefined) params.systemPrompt = request.systemPrompt;
  if (request.temperature !== undefined) params.temperature = request.temperature;
  if (request.stopSequences !== undefined) params.stopSequences = [...request.stopSequences];
  return params;
}

/** The client's answer; a request that failed is `failed`, unless the call was aborted, whose reason wins. */
async function asked(feature: "ask_user" | "sample", send: () => Promise<unknown>, signal: AbortSignal): Promise<unknown> {
  try {
    return await send();
  } catch (cause) {
    signal.throwIfAborted();
    throw new ClientRequestError(feature, "failed", {
      cause,
      detail: `the request to the client failed: ${cause instanceof Error ? cause.message : String(cause)}`,
    });
  }
}
