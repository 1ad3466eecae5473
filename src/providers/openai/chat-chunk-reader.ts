import type { StreamReader } from "../model-stream.js";
import { parseArgumentsText } from "../parse-arguments.js";
import { isRecord } from "../shape.js";
import { ObjectCloser } from "./object-closer.js";
import { TruncatedStreamError } from "../truncated-stream-error.js";
import { count, tokenUsage, usageEvent } from "../usage-event.js";
import type { FinishReason, ModelEvent, TokenUsage } from "../../index.js";

/** One streamed Chat Completions chunk, the fields the model reads. */
export interface ChatCompletionChunkLike {
  id?: string;
  model?: string;
  choices: readonly {
    index: number;
    delta: {
      content?: string | null;
      tool_calls?: readonly { index: number; id?: string; function?: { name?: string; arguments?: string } }[];
    };
    finish_reason: string | null;
  }[];
  /** On the last chunk, with `stream_options: { include_usage: true }`. */
  usage?: {
    prompt_tokens: number;
    completion_tokens: number;
    prompt_tokens_details?: { cached_tokens?: number } | null;
    completion_tokens_details?: { reasoning_tokens?: number } | null;
  } | null;
}

/** Chat Completions finish reasons in §9's words (`function_call` is the legacy name for tool calls). */
const FINISH: Readonly<Record<string, FinishReason>> = {
  stop: "stop",
  tool_calls: "tool_calls",
  function_call: "tool_calls",
  length: "length",
  content_filter: "content_filter",
};

interface PartialCall {
  readonly index: number;
  id: string;
  name: string;
  text: string;
  /** Complete: its arguments closed as a JSON object, or a new id took its index. */
  ready: boolean;
  /** Handed to the loop: later deltas for it are ignored. */
  done: boolean;
  /** Whether `tool_input_started` went out: once the id and name are known. */
  announced: boolean;
  readonly closer: ObjectCloser;
}

/**
 * Reads the first choice (the loop asks for one). A call is complete once its arguments parse
 * as a whole JSON object, or once a delta at its index brings a new id (some compatible servers
 * send every whole call at index 0). A call at a later index beginning proves nothing: the
 * format lets a stream interleave calls by `index`, so an earlier call may still get text. A
 * complete call is handed over as soon as every call before it (by index, then arrival) is, so
 * the calls come out whole and in the model's order however the stream interleaves them; calls
 * still open when the choice finishes are handed over then. `finish` waits for the end of the
 * stream, since the usage chunk comes after the finish chunk; a stream that ends without a
 * finish chunk was cut.
 */
export class ChatChunkReader implements StreamReader<ChatCompletionChunkLike> {
  /** Every call, by index and then arrival: the order they are handed over in. */
  private readonly calls: PartialCall[] = [];
  /** How many of `calls`, from the first, are handed over. */
  private handed = 0;
  /** The latest call at each index. */
  private readonly open = new Map<number, PartialCall>();
  private finish: string | undefined;
  private usage: TokenUsage | undefined;
  private responseId: unknown;
  private responseModel: unknown;
  private called = false;

  read(chunk: ChatCompletionChunkLike): ModelEvent[] {
    this.responseId ??= chunk.id;
    this.responseModel ??= chunk.model;
    if (isRecord(chunk.usage)) this.readUsage(chunk.usage);
    // A usage-only chunk has no choices; the loop asks for one choice, index 0.
    const choice = chunk.choices?.find((c) => c.index === 0);
    if (choice === undefined) return [];
    const events: ModelEvent[] = [];
    const { content, tool_calls } = choice.delta;
    if (typeof content === "string" && content !== "") events.push({ type: "text_delta", text: content });
    for (const delta of tool_calls ?? []) this.readCall(delta, events);
    if (choice.finish_reason !== null && choice.finish_reason !== undefined && this.finish === undefined) {
      this.finish = choice.finish_reason;
      for (const call of this.calls) call.ready = true;
      this.handReady(events);
    }
    return events;
  }

  end(): ModelEvent[] {
    if (this.finish === undefined) return [{ type: "finish", reason: "error", error: new TruncatedStreamError("OpenAI Chat Completions", "finish_reason") }];
    const events: ModelEvent[] = [];
    if (this.usage !== undefined) events.push(usageEvent(this.usage, this.responseId, this.responseModel));
    events.push({ type: "finish", reason: finishReason(this.finish, this.called) });
    return events;
  }

  private readCall(delta: NonNullable<ChatCompletionChunkLike["choices"][number]["delta"]["tool_calls"]>[number], events: ModelEvent[]): void {
    let call = this.open.get(delta.index);
    if (call !== undefined && delta.id && call.id !== "" && delta.id !== call.id) {
      call.ready = true;
      call = undefined;
    }
    if (call === undefined) {
      call = { index: delta.index, id: "", name: "", text: "", ready: false, done: false, announced: false, closer: new ObjectCloser() };
      this.insert(call);
      this.open.set(delta.index, call);
    }
    if (call.ready) return;
    if (delta.id) call.id = delta.id;
    // OpenAI names a call once; some compatible servers repeat the whole name on every delta.
    const name = delta.function?.name;
    if (name && name !== call.name) call.name += name;
    if (!call.announced && call.id !== "" && call.name !== "") {
      call.announced = true;
      events.push({ type: "tool_input_started", id: call.id, name: call.name });
      // Text that came before the call was named is told at once.
      if (call.text !== "") events.push({ type: "tool_input_delta", id: call.id, delta: call.text });
    }
    const more = delta.function?.arguments;
    if (more) {
      call.text += more;
      if (call.announced) events.push({ type: "tool_input_delta", id: call.id, delta: more });
    }
    const closed = call.closer.feed(more ?? "");
    if (closed && call.id !== "" && call.name !== "" && isObjectText(call.text)) call.ready = true;
    this.handReady(events);
  }

  /** After the calls at its index or below: the order of the stream had it not interleaved. */
  private insert(call: PartialCall): void {
    let at = this.calls.length;
    while (at > this.handed && (this.calls[at - 1] as PartialCall).index > call.index) at--;
    this.calls.splice(at, 0, call);
  }

  /** Hand over the complete calls that no open call comes before. */
  private handReady(events: ModelEvent[]): void {
    while (this.handed < this.calls.length) {
      const call = this.calls[this.handed] as PartialCall;
      if (!call.ready) return;
      this.handed++;
      call.done = true;
      this.called = true;
      events.push({ type: "tool_call", call: { id: call.id, name: call.name, ...parseArgumentsText(call.text) } });
    }
  }

  private readUsage(usage: Record<string, unknown>): void {
    const input = count(usage.prompt_tokens);
    const output = count(usage.completion_tokens);
    if (input === undefined || output === undefined) return;
    const cached = isRecord(usage.prompt_tokens_details) ? count(usage.prompt_tokens_details.cached_tokens) : undefined;
    const reasoning = isRecord(usage.completion_tokens_details) ? count(usage.completion_tokens_details.reasoning_tokens) : undefined;
    this.usage = tokenUsage(input, output, cached, reasoning);
  }
}

/** Whether argument text, which {@link ObjectCloser} saw close, parses as an object. */
function isObjectText(text: string): boolean {
  try {
    return isRecord(JSON.parse(text));
  } catch {
    return false;
  }
}

function finishReason(reason: string, calledTools: boolean): FinishReason {
  const mapped = FINISH[reason] ?? "stop";
  // Some OpenAI-compatible servers say `stop` after tool calls; the calls are what counts.
  return mapped === "stop" && calledTools ? "tool_calls" : mapped;
}
