import { isRecord } from "../shape.js";
import { count, tokenUsage, usageEvent } from "../usage-event.js";
import type { ModelEvent } from "../../index.js";

/**
 * The tokens of a streamed message: `message_start` gives the input side, each `message_delta`
 * the output so far (cumulative, so the last one wins). Anthropic counts cache reads and cache
 * writes apart from `input_tokens`; toolrx's `inputTokens` is every input token, cached or not.
 */
export class AnthropicUsage {
  private id: unknown;
  private model: unknown;
  private input: number | undefined;
  private cacheRead: number | undefined;
  private cacheWrite: number | undefined;
  private output: number | undefined;

  start(message: unknown): void {
    if (!isRecord(message)) return;
    this.id = message.id;
    this.model = message.model;
    this.read(message.usage);
  }

  delta(usage: unknown): void {
    this.read(usage);
  }

  /** The `usage` event, once both sides are known. */
  events(): ModelEvent[] {
    if (this.input === undefined || this.output === undefined) return [];
    const inputTokens = this.input + (this.cacheRead ?? 0) + (this.cacheWrite ?? 0);
    return [usageEvent(tokenUsage(inputTokens, this.output, this.cacheRead, undefined), this.id, this.model)];
  }

  private read(usage: unknown): void {
    if (!isRecord(usage)) return;
    this.input = count(usage.input_tokens) ?? this.input;
    this.cacheRead = count(usage.cache_read_input_tokens) ?? this.cacheRead;
    this.cacheWrite = count(usage.cache_creation_input_tokens) ?? this.cacheWrite;
    this.output = count(usage.output_tokens) ?? this.output;
  }
}
