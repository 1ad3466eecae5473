import type { ContentPart } from "./content-part.js";
import type { ProviderState } from "./provider-state.js";
import type { ToolCall } from "./tool-call.js";

/** One tool-role message per call, ready to append to the conversation. */
export interface ToolMessage {
  role: "tool";
  toolCallId: string;
  name: string;
  content: string;
  /** True when `content` is an error text (`encodeError`). */
  isError: boolean;
  /**
   * Rich content after `content` (`ok(value, { parts })`): images, files, resources. Providers
   * that take them send them; the others get a text marker for each (docs/tools.md).
   */
  parts?: readonly ContentPart[];
}

/** A system prompt or a user's words. */
export interface TextMessage {
  readonly role: "system" | "user";
  readonly content: string;
  /**
   * A user's images and files after `content`, for the providers that take them (a system
   * message carries none: providers refuse them there).
   */
  readonly parts?: readonly ContentPart[];
}

/**
 * A piece of the model's reasoning, kept in the conversation because providers require it back:
 * Anthropic's thinking blocks (their `signature`, or a `redacted_thinking` block's `data`), the
 * OpenAI Responses API's reasoning items (their `id` and `encrypted_content`). `text` is what a
 * reader may see (`""` when the provider gave only opaque state). `provider` names whose state
 * `data` is; a provider converter sends back only its own parts and drops the others (another
 * provider's signature cannot be verified, and its text is not the new model's own reasoning).
 */
export interface ReasoningPart {
  readonly text: string;
  /** Whose `data` this is (`"anthropic"`, `"openai-responses"`, `"ai-sdk"`); absent for text alone, which no provider takes back. */
  readonly provider?: string;
  /** The provider's opaque state, kept as it came: give it back unchanged. */
  readonly data?: Readonly<Record<string, unknown>>;
}

/**
 * The model's turn: its text, and the tool calls it asked for in the order it emitted them.
 * `metadata.askUser` marks the question of an `ask_user` halt, appended by the loop.
 */
export interface AssistantMessage {
  readonly role: "assistant";
  readonly content: string;
  /** The model's reasoning before its text and calls, in the order it came; absent when there was none. */
  readonly reasoning?: readonly ReasoningPart[];
  readonly toolCalls?: readonly ToolCall[];
  /**
   * What the provider ran itself this turn (web search, code execution, its own tool search),
   * kept as the provider sent it, in order, so it goes back on the next request. toolrx never
   * runs these; docs/providers.md has which converters take which.
   */
  readonly providerItems?: readonly ProviderItem[];
  /**
   * The provider's state on the text, by block (a Gemini `thoughtSignature`, an OpenAI Responses
   * message item's id), in order: each covers `content` from where the one before it ended up to
   * its `textEnd`. Absent when the provider gave none; text after the last one has none.
   */
  readonly textState?: readonly TextState[];
  readonly metadata?: Record<string, unknown>;
}

/** The provider's state on one block of an assistant message's text (see `AssistantMessage.textState`). */
export interface TextState extends ProviderState {
  /** Characters of the message's `content` up to where this block ends (it starts where the one before it ended, or at 0). */
  readonly textEnd: number;
}

/**
 * A provider-executed tool call or result, opaque to toolrx: Anthropic's `server_tool_use` and
 * `*_tool_result` blocks, an OpenAI Responses `web_search_call` or `tool_search_output` item.
 * Only the provider that wrote it can take it back; another provider's converter refuses it,
 * naming it, rather than drop what the model saw.
 */
export interface ProviderItem {
  /** Whose wire format `item` is in. */
  readonly provider: "anthropic" | "openai-responses";
  /** The block or item as the provider sent it (JSON), with a string `type`. */
  readonly item: Readonly<Record<string, unknown>>;
  /** Characters of the message's `content` that came before it, so text and items keep their order. */
  readonly textOffset: number;
}

/**
 * The host's decision on a call that needed approval (`approval_required` halt). It is host
 * bookkeeping, never shown to a model: provider converters skip it. On resume the loop runs an
 * approved call once, answers a denied one with a text the model can read, and honours a
 * decision only for a call actually pending in the conversation.
 */
export interface ApprovalMessage {
  readonly role: "approval";
  readonly toolCallId: string;
  readonly approved: boolean;
  /** Why, for a denial: shown to the model in the denied call's tool message. */
  readonly reason?: string;
  /** The pending approval's `token`, given back as it came (required with an `approvalSecret`). */
  readonly token?: string;
  /**
   * The arguments approved: the pending approval's, or edited ones. Edited arguments are checked
   * against the tool's schema and `needsApproval` is asked about them again (when it still asks,
   * the run halts with `approval_required` for the edited call).
   */
  readonly arguments?: Record<string, unknown>;
}

/** One message of a conversation, as the loop reads and writes it. */
export type Message = TextMessage | AssistantMessage | ToolMessage | ApprovalMessage;
