/**
 * One scripted reply as each provider streams it: the Server-Sent Events of OpenAI Chat
 * Completions, OpenAI Responses and Anthropic Messages, in the shapes their official SDKs parse
 * (test/testing/provider-server.test.ts drives the real SDKs through them).
 */

/** A reply the provider server plays, in provider-neutral words. */
export interface ScriptedReply {
  /**
   * The model's reasoning, before its text: a Responses `reasoning` item (its summary, with an id
   * and encrypted content) and an Anthropic `thinking` block (signed). Chat Completions streams none.
   */
  readonly reasoning?: string;
  /**
   * What the provider runs itself, streamed before the text: Anthropic content blocks
   * (`server_tool_use`, whose `input` streams as JSON deltas, then `web_search_tool_result`,
   * `tool_search_tool_result`…) or Responses output items (`web_search_call`,
   * `tool_search_call`, `tool_search_output`…), as the provider sends them. Chat Completions
   * has none: a reply with any is answered 500.
   */
  readonly hosted?: readonly Readonly<Record<string, unknown>>[];
  /** Text the model streams, before its calls. */
  readonly text?: string;
  readonly calls?: readonly { readonly id?: string; readonly name: string; readonly arguments: Record<string, unknown> }[];
  /** Into how many deltas each text and each call's argument JSON is cut. Default 3. */
  readonly pieces?: number;
  /** Default `{ inputTokens: 12, outputTokens: 8 }`. */
  readonly usage?: { readonly inputTokens: number; readonly outputTokens: number };
  /** Default `"tool_calls"` when there are calls, else `"stop"`. */
  readonly finish?: "stop" | "tool_calls" | "length";
}

/** Which wire format: the three streaming endpoints the server answers. */
export type ProviderApi = "chat" | "responses" | "anthropic";

/** An SSE frame: the event's name (Responses and Anthropic name theirs) and its data. */
interface Frame {
  readonly event?: string;
  readonly data: unknown;
}

/** `reply` as the SSE text `api` streams. `n` numbers the reply, for ids the script left out. */
export function sseOf(api: ProviderApi, reply: ScriptedReply, n: number): string {
  if (api === "chat" && (reply.hosted?.length ?? 0) > 0)
    throw new Error("Chat Completions has no hosted tool items: script `hosted` for Responses or Anthropic");
  const frames = api === "chat" ? chatFrames(reply, n) : api === "responses" ? responsesFrames(reply, n) : anthropicFrames(reply, n);
  return frames
    .map((f) => `${f.event === undefined ? "" : `event: ${f.event}\n`}data: ${typeof f.data === "string" ? f.data : JSON.stringify(f.data)}\n\n`)
    .join("");
}

function cut(text: string, pieces: number): string[] {
  if (text === "") return [];
  const size = Math.max(1, Math.ceil(text.length / pieces));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function callsOf(reply: ScriptedReply, n: number) {
  return (reply.calls ?? []).map((c, i) => ({ id: c.id ?? `call_${n}_${i}`, name: c.name, json: JSON.stringify(c.arguments) }));
}

const finishOf = (reply: ScriptedReply) => reply.finish ?? ((reply.calls?.length ?? 0) > 0 ? "tool_calls" : "stop");
const usageOf = (reply: ScriptedReply) => reply.usage ?? { inputTokens: 12, outputTokens: 8 };

function chatFrames(reply: ScriptedReply, n: number): Frame[] {
  const pieces = reply.pieces ?? 3;
  const chunk = (delta: unknown, finish_reason: string | null = null, usage?: unknown): Frame => ({
    data: {
      id: `chatcmpl_${n}`,
      object: "chat.completion.chunk",
      created: 1_700_000_000,
      model: "scripted",
      choices: usage === undefined ? [{ index: 0, delta, finish_reason, logprobs: null }] : [],
      ...(usage === undefined ? {} : { usage }),
    },
  });
  const frames: Frame[] = [chunk({ role: "assistant", content: "" })];
  for (const t of cut(reply.text ?? "", pieces)) frames.push(chunk({ content: t }));
  callsOf(reply, n).forEach((c, index) => {
    cut(c.json, pieces).forEach((args, i) => {
      frames.push(
        chunk({
          tool_calls: [i === 0 ? { index, id: c.id, type: "function", function: { name: c.name, arguments: args } } : { index, function: { arguments: args } }],
        }),
      );
    });
  });
  const finish = finishOf(reply);
  frames.push(chunk({}, finish));
  const { inputTokens, outputTokens } = usageOf(reply);
  frames.push(chunk({}, null, { prompt_tokens: inputTokens, completion_tokens: outputTokens, total_tokens: inputTokens + outputTokens }));
  frames.push({ data: "[DONE]" });
  return frames;
}

function responsesFrames(reply: ScriptedReply, n: number): Frame[] {
  const pieces = reply.pieces ?? 3;
  let sequence_number = 0;
  const frame = (body: Record<string, unknown> & { type: string }): Frame => ({ event: body.type, data: { ...body, sequence_number: sequence_number++ } });
  const { inputTokens, outputTokens } = usageOf(reply);
  const response = (status: string, output: unknown[] = [], extra: Record<string, unknown> = {}) => ({
    id: `resp_${n}`,
    object: "response",
    created_at: 1_700_000_000,
    status,
    model: "scripted",
    output,
    output_text: "",
    error: null,
    incomplete_details: null,
    instructions: null,
    metadata: {},
    parallel_tool_calls: true,
    temperature: 1,
    top_p: 1,
    tool_choice: "auto",
    tools: [],
    ...extra,
  });
  const frames: Frame[] = [frame({ type: "response.created", response: response("in_progress") })];
  const output: unknown[] = [];
  const thought = reply.reasoning ?? "";
  if (thought !== "") {
    const id = `rs_${n}`;
    const item = { type: "reasoning", id, summary: [{ type: "summary_text", text: thought }], encrypted_content: `enc_${n}` };
    frames.push(frame({ type: "response.output_item.added", output_index: 0, item: { type: "reasoning", id, summary: [] } }));
    const part = { type: "summary_text", text: "" };
    frames.push(frame({ type: "response.reasoning_summary_part.added", item_id: id, output_index: 0, summary_index: 0, part }));
    for (const delta of cut(thought, pieces))
      frames.push(frame({ type: "response.reasoning_summary_text.delta", item_id: id, output_index: 0, summary_index: 0, delta }));
    frames.push(frame({ type: "response.output_item.done", output_index: 0, item }));
    output.push(item);
  }
  for (const item of reply.hosted ?? []) {
    const output_index = output.length;
    frames.push(frame({ type: "response.output_item.added", output_index, item: { ...item, status: "in_progress" } }));
    frames.push(frame({ type: "response.output_item.done", output_index, item }));
    output.push(item);
  }
  const text = reply.text ?? "";
  if (text !== "") {
    const output_index = output.length;
    const item = { type: "message", id: `msg_${n}`, role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] };
    frames.push(frame({ type: "response.output_item.added", output_index, item: { ...item, status: "in_progress", content: [] } }));
    for (const delta of cut(text, pieces))
      frames.push(frame({ type: "response.output_text.delta", item_id: `msg_${n}`, output_index, content_index: 0, delta, logprobs: [] }));
    frames.push(frame({ type: "response.output_item.done", output_index, item }));
    output.push(item);
  }
  for (const c of callsOf(reply, n)) {
    const output_index = output.length;
    const id = `fc_${n}_${output_index}`;
    frames.push(
      frame({
        type: "response.output_item.added",
        output_index,
        item: { type: "function_call", id, call_id: c.id, name: c.name, arguments: "", status: "in_progress" },
      }),
    );
    for (const delta of cut(c.json, pieces)) frames.push(frame({ type: "response.function_call_arguments.delta", item_id: id, output_index, delta }));
    const item = { type: "function_call", id, call_id: c.id, name: c.name, arguments: c.json, status: "completed" };
    frames.push(frame({ type: "response.output_item.done", output_index, item }));
    output.push(item);
  }
  const usage = {
    input_tokens: inputTokens,
    output_tokens: outputTokens,
    total_tokens: inputTokens + outputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens_details: { reasoning_tokens: 0 },
  };
  if (finishOf(reply) === "length")
    frames.push(
      frame({ type: "response.incomplete", response: response("incomplete", output, { usage, incomplete_details: { reason: "max_output_tokens" } }) }),
    );
  else frames.push(frame({ type: "response.completed", response: response("completed", output, { usage }) }));
  return frames;
}

function anthropicFrames(reply: ScriptedReply, n: number): Frame[] {
  const pieces = reply.pieces ?? 3;
  const frame = (body: Record<string, unknown> & { type: string }): Frame => ({ event: body.type, data: body });
  const { inputTokens, outputTokens } = usageOf(reply);
  const usage = (output_tokens: number, input_tokens: number | null) => ({
    input_tokens,
    output_tokens,
    cache_creation_input_tokens: null,
    cache_read_input_tokens: null,
    server_tool_use: null,
  });
  const frames: Frame[] = [
    frame({
      type: "message_start",
      message: {
        id: `msg_${n}`,
        type: "message",
        role: "assistant",
        model: "scripted",
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage(1, inputTokens), service_tier: "standard" },
      },
    }),
  ];
  let index = 0;
  const thought = reply.reasoning ?? "";
  if (thought !== "") {
    frames.push(frame({ type: "content_block_start", index, content_block: { type: "thinking", thinking: "", signature: "" } }));
    for (const thinking of cut(thought, pieces)) frames.push(frame({ type: "content_block_delta", index, delta: { type: "thinking_delta", thinking } }));
    frames.push(frame({ type: "content_block_delta", index, delta: { type: "signature_delta", signature: `sig_${n}` } }));
    frames.push(frame({ type: "content_block_stop", index: index++ }));
  }
  for (const block of reply.hosted ?? []) {
    // A server tool's input streams as a tool_use's does; a result block comes whole.
    const streamed = block.type === "server_tool_use";
    frames.push(frame({ type: "content_block_start", index, content_block: streamed ? { ...block, input: {} } : block }));
    if (streamed)
      for (const partial_json of cut(JSON.stringify(block.input ?? {}), pieces))
        frames.push(frame({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json } }));
    frames.push(frame({ type: "content_block_stop", index: index++ }));
  }
  const text = reply.text ?? "";
  if (text !== "") {
    frames.push(frame({ type: "content_block_start", index, content_block: { type: "text", text: "", citations: null } }));
    for (const t of cut(text, pieces)) frames.push(frame({ type: "content_block_delta", index, delta: { type: "text_delta", text: t } }));
    frames.push(frame({ type: "content_block_stop", index: index++ }));
  }
  for (const c of callsOf(reply, n)) {
    frames.push(frame({ type: "content_block_start", index, content_block: { type: "tool_use", id: c.id, name: c.name, input: {} } }));
    for (const partial_json of cut(c.json, pieces))
      frames.push(frame({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json } }));
    frames.push(frame({ type: "content_block_stop", index: index++ }));
  }
  const stop_reason = { stop: "end_turn", tool_calls: "tool_use", length: "max_tokens" }[finishOf(reply)];
  frames.push(frame({ type: "message_delta", delta: { stop_reason, stop_sequence: null }, usage: usage(outputTokens, null) }));
  frames.push(frame({ type: "message_stop" }));
  return frames;
}
