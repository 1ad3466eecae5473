import type { Observable, Subscription } from "rxjs";
import { assertToolCall, type ToolCall } from "../../tool/tool-call.js";
import type { CallBatch } from "../batch/index.js";
import { CallIds } from "./call-ids.js";
import { LiveInput } from "./live-input.js";
import {
  ModelEventError,
  type FinishReason,
  type ModelEvent,
  type TokenUsage,
  assistantMessage,
  replyState,
  type ReplyState,
  isTokenUsage,
} from "../model/index.js";
import type { AgentEvent } from "../events/index.js";
import type { AssistantMessage, ProviderItem, ReasoningPart, TextState } from "../../tool/message.js";
import { isProviderState } from "../../tool/provider-state.js";
import { providerItemIssue } from "../../tool/provider-item.js";
import { isPlainRecord } from "../../util/safe.js";
import { isReasoningPart } from "../../tool/reasoning-part.js";

/** Where a model's reply reports: its turn. */
export interface ReplySink {
  emit(event: AgentEvent): void;
  usage(usage: TokenUsage): void;
  /** The reply broke the protocol (or the model failed): the turn fails with `error`. */
  fail(error: unknown): void;
  /** The model is done: its whole reply, before the batch is closed and its calls settle. */
  replied(message: AssistantMessage, finishReason: FinishReason): void;
}

const FINISH_REASONS: ReadonlySet<string> = /* @__PURE__ */ new Set(["stop", "tool_calls", "length", "content_filter", "error"]);

/**
 * One model reply, read as it streams: text is kept and shown, each tool call is checked and
 * handed to the turn's batch the moment it arrives (so it starts while the model still writes),
 * and the batch is closed when the model is done. Every event is checked against the protocol:
 * a malformed one fails the turn with a {@link ModelEventError} naming it, never a silent skip.
 */
export class ModelReply {
  readonly #turn: number;
  readonly #quiet: boolean;
  readonly #batch: CallBatch;
  readonly #sink: ReplySink;
  readonly #text: string[] = [];
  /** The text joined, until more of it comes: a journal reads it with every call that starts. */
  #joined: string | undefined;
  #reasoning: ReasoningPart[] | undefined;
  /** Reasoning text streamed since the last complete piece. */
  #thinking: string | undefined;
  #textLength = 0;
  /** What the provider ran itself, where the text so far puts it. */
  #items: ProviderItem[] | undefined;
  /** The provider's state on the text's blocks, where each ended. */
  readonly #textState: TextState[] = [];
  readonly #ids = new CallIds();
  #live: LiveInput | undefined;
  #subscription: Subscription | undefined;
  #over = false;
  #finishReason: FinishReason | undefined;
  #message: AssistantMessage | undefined;

  constructor(turn: number, quiet: boolean, batch: CallBatch, sink: ReplySink) {
    this.#turn = turn;
    this.#quiet = quiet;
    this.#batch = batch;
    this.#sink = sink;
  }

  /** The reply's text so far: the whole of it once the model is done. */
  get text(): string {
    this.#joined ??= this.#text.join("");
    return this.#joined;
  }

  /** The reply's reasoning pieces, once the model is done; `undefined` when it gave none. */
  get reasoning(): readonly ReasoningPart[] | undefined {
    return this.#reasoning;
  }

  /** What the provider ran itself, in order; undefined when it ran nothing. */
  get providerItems(): readonly ProviderItem[] | undefined {
    return this.#items;
  }

  /** What of the reply besides its text and calls has come so far, copied (a journal keeps it with each call that starts); undefined when nothing has. */
  get state(): ReplyState | undefined {
    return replyState(this.#reasoning?.slice(), this.textState?.slice(), this.#items?.slice());
  }

  /** The provider's state on the text's blocks; undefined when it gave none. */
  get textState(): readonly TextState[] | undefined {
    return this.#textState.length > 0 ? this.#textState : undefined;
  }

  /** The reply as the assistant's message, once the model is done: the turn's own, built once. */
  get message(): AssistantMessage | undefined {
    return this.#message;
  }
  /** The reason the model gave in its `finish` event, if it sent one. */
  get finishReason(): FinishReason | undefined {
    return this.#finishReason;
  }

  listen(events: Observable<ModelEvent>): void {
    const subscription = events.subscribe({
      next: (event) => this.#over || this.#event(event),
      error: (e: unknown) => this.#over || this.#sink.fail(e),
      complete: () => this.#over || this.#done(),
    });
    // Done, failed or stopped while subscribing: nothing more is wanted from the model.
    if (this.#over) subscription.unsubscribe();
    else this.#subscription = subscription;
  }

  /** Stop listening; the model's stream is unsubscribed and nothing more of it is read. */
  stop(): void {
    this.#over = true;
    this.#subscription?.unsubscribe();
  }

  #event(event: ModelEvent): void {
    if (!isPlainRecord(event)) {
      this.#fail(event, "an event that is not an object");
      return;
    }
    if (this.#thinking !== undefined && event.type !== "reasoning_delta" && event.type !== "reasoning") this.#reasoned({ text: this.#thinking });
    switch (event.type) {
      case "reasoning_delta":
        if (typeof event.text !== "string") {
          this.#fail(event, "a reasoning_delta whose `text` is not a string");
          return;
        }
        this.#thinking = (this.#thinking ?? "") + event.text;
        if (!this.#quiet) this.#sink.emit({ type: "reasoning", turn: this.#turn, state: "delta", text: event.text });
        return;
      case "reasoning": {
        const part = event.part as unknown;
        if (!isReasoningPart(part)) {
          this.#fail(event, "a reasoning event whose `part` is not { text: string, provider?: string, data?: object }");
          return;
        }
        this.#reasoned(part);
        return;
      }
      case "text_delta":
        if (typeof event.text !== "string") {
          this.#fail(event, "a text_delta whose `text` is not a string");
          return;
        }
        this.#text.push(event.text);
        this.#joined = undefined;
        this.#textLength += event.text.length;
        if (!this.#quiet) this.#sink.emit({ type: "text_delta", turn: this.#turn, text: event.text });
        return;
      case "text_state":
        if (isProviderState({ provider: event.provider, data: event.data }))
          this.#textState.push({ provider: event.provider, data: event.data, textEnd: this.#textLength });
        else this.#fail(event, "a text_state without a string `provider` and an object `data`");
        return;
      case "tool_call":
        this.#call(event.call, event);
        return;
      case "provider_item": {
        // Kept, never run: the provider already ran it, and a call toolrx made up would run twice.
        const issue = providerItemIssue(event);
        if (issue !== undefined) {
          this.#fail(event, `a provider_item without ${issue.replace(/^an? /, "")}`);
          return;
        }
        this.#items ??= [];
        this.#items.push({ provider: event.provider, item: event.item, textOffset: this.#textLength });
        return;
      }
      case "tool_input_started":
      case "tool_input_delta": {
        if (this.#quiet) return;
        this.#live ??= new LiveInput(this.#turn);
        const live = this.#live;
        const e = event as { id?: unknown; name?: unknown; delta?: unknown };
        const shown = event.type === "tool_input_started" ? live.started(e.id, e.name) : live.delta(e.id, e.delta);
        if (shown !== undefined) this.#sink.emit(shown);
        return;
      }
      case "finish":
        if (!FINISH_REASONS.has(event.reason)) {
          this.#fail(event, "a finish event with an unknown `reason`");
          return;
        }
        if (event.reason === "error") {
          this.#sink.fail(event.error);
          return;
        }
        this.#finishReason = event.reason;
        // `finish` ends the model's part of the turn: stop listening.
        this.stop();
        this.#done();
        return;
      case "usage":
        if (!isTokenUsage(event.usage)) {
          this.#fail(event, "a usage event whose token counts are not non-negative numbers");
          return;
        }
        this.#sink.usage(event.usage);
        return;
      default:
        this.#fail(event, "an event of unknown type");
    }
  }

  #call(call: ToolCall, event: ModelEvent): void {
    const batch = this.#batch;
    try {
      assertToolCall(call, batch.calls.length);
    } catch (e) {
      this.#fail(event, `a malformed tool call (${(e as Error).message})`);
      return;
    }
    if (this.#ids.seen(call.id, batch.calls)) {
      this.#fail(event, `a second tool call with the id "${call.id}"`);
      return;
    }
    const complete = this.#live?.complete(call);
    if (complete !== undefined) this.#sink.emit(complete);
    batch.add(call);
  }

  /** A piece of reasoning is whole: kept for the message, and shown. */
  #reasoned(part: ReasoningPart): void {
    this.#thinking = undefined;
    if (this.#reasoning === undefined) this.#reasoning = [part];
    else this.#reasoning.push(part);
    if (!this.#quiet) this.#sink.emit({ type: "reasoning", turn: this.#turn, state: "complete", part });
  }

  #fail(event: unknown, what: string): void {
    this.#sink.fail(new ModelEventError(this.#turn, event, what));
  }

  #done(): void {
    this.#over = true;
    if (this.#thinking !== undefined) this.#reasoned({ text: this.#thinking });
    const message = assistantMessage(this.text, this.#batch.calls, this.#reasoning, this.#items, this.textState);
    this.#message = message;
    this.#sink.replied(message, this.#finishReason ?? (message.toolCalls !== undefined ? "tool_calls" : "stop"));
    this.#batch.close();
  }
}
