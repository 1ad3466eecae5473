/**
 * The data parts toolrx adds to a UI message stream, by name (`data-<name>` on the wire): give
 * this as the data-types argument of `UIMessage` so `useChat` types them.
 *
 * @example
 * type ChatMessage = UIMessage<unknown, ToolrxDataTypes>;
 * const { messages } = useChat<ChatMessage>();
 */
export type ToolrxDataTypes = {
  /** A call asked the user (`askUser`): answer it with `addToolOutput` for that call, or a new user message. Its `id` is the call's id. */
  "ask-user": { readonly toolCallId: string; readonly question: string; readonly opts: unknown };
  /** The latest progress of a running call (`ctx.progress`); its `id` is `progress-<toolCallId>`, so each update replaces the last. */
  "tool-progress": { readonly toolCallId: string; readonly toolName: string; readonly [field: string]: unknown };
  /** Any other report of a running call (a recipe step, a failed attempt, a late settlement): transient, for `onData`. */
  "call-report": { readonly toolCallId: string; readonly toolName: string; readonly report: unknown };
  /** An event of a subagent running inside the call `toolCallId`: transient, for `onData`. */
  "subagent-event": { readonly toolCallId: string; readonly toolName: string; readonly event: unknown };
};
