import type { UIMessage, UIMessageChunk } from "ai";
import { Observable, type OperatorFunction } from "rxjs";
import type { AgentEvent, Tool } from "../index.js";
import { withToolApps } from "./tool-apps.js";
import { ChunkWriter } from "./chunk-writer.js";

/** Options of {@link toUIMessageChunks}. */
export interface UIMessageChunksOptions {
  /**
   * The messages the page posted (what {@link fromUIMessages} read): the calls on them are
   * updated in place, and an open call of an earlier message is put on the message this stream
   * writes (the page can answer only its last message). Pass them whenever the run resumes.
   */
  readonly originalMessages?: readonly UIMessage[];
  /**
   * The text the page gets for a run that ended with `error`. Default: `"An error occurred."`,
   * as the AI SDK does: an error's message may say more than a browser should read.
   */
  readonly onError?: (error: unknown) => string;
  /** The assistant message's id, sent on the `start` chunk; default: the client's own. */
  readonly messageId?: string;
  /**
   * The run's tools: a call of one with an MCP Apps view (`metadata.app`; `mcpTools` sets it
   * from a server's `_meta.ui`) carries it as its part's `toolMetadata.app`, which the AI SDK's
   * `MCPAppRenderer` renders (the page reads the `ui://` resource from the tool's server).
   */
  readonly tools?: readonly Tool[];
}

/**
 * Turn `streamAgent`'s events into the AI SDK's UI message stream, the chunks `useChat` reads:
 * each turn a step, the model's reasoning and text, each call's input as it streams and its output or error,
 * progress and call reports as data parts, an `ask_user` question as an `ask-user` data part (the
 * call stays open for `addToolOutput`), each pending approval as a `tool-approval-request` (its
 * token as the `signature`), manual calls as open calls, then the run's usage and the finish.
 *
 * @example
 * const chunks = streamAgent(options).pipe(toUIMessageChunks({ originalMessages: body.messages }));
 * return uiMessageStreamResponse(chunks);
 */
export function toUIMessageChunks(options: UIMessageChunksOptions = {}): OperatorFunction<AgentEvent<string>, UIMessageChunk> {
  if (options === null || typeof options !== "object")
    throw new TypeError(`Expected \`options\` of \`toUIMessageChunks\` to be an object, got ${String(options)}`);
  const { originalMessages = [], onError = defaultErrorText, messageId, tools = [] } = options;
  if (!Array.isArray(tools)) throw new TypeError("Expected `tools` of `toUIMessageChunks` to be an array of tools");
  if (!Array.isArray(originalMessages)) throw new TypeError("Expected `originalMessages` of `toUIMessageChunks` to be an array of UI messages");
  if (typeof onError !== "function") throw new TypeError("Expected `onError` of `toUIMessageChunks` to be a function");
  if (messageId !== undefined && typeof messageId !== "string") throw new TypeError("Expected `messageId` of `toUIMessageChunks` to be a string");
  return (source) =>
    new Observable<UIMessageChunk>((subscriber) => {
      const writer = new ChunkWriter(
        withToolApps((chunk) => subscriber.next(chunk), tools),
        originalMessages,
        onError,
      );
      subscriber.next(messageId === undefined ? { type: "start" } : { type: "start", messageId });
      return source.subscribe({
        next: (event) => writer.write(event),
        error: (e: unknown) => subscriber.error(e),
        complete: () => subscriber.complete(),
      });
    });
}

function defaultErrorText(): string {
  return "An error occurred.";
}
