import type { UIMessage, UIMessageChunk } from "ai";
import type { AgentEvent, AgentHaltedEvent, CallReport, Message, ModelReplyEvent, PendingApproval, ToolCall, ToolEvent, ToolInputEvent } from "../index.js";
import { toolPartsOf } from "./tool-parts.js";
import { jsonSafe } from "../util/json-safe.js";
import { finishReasonOf } from "./finish-reason.js";
import { outputOf } from "./tool-output.js";
import { ModelParts } from "./model-parts.js";

/** One run's state: which parts are open and which calls the page has. */
export class ChunkWriter {
  readonly #emit: (chunk: UIMessageChunk) => void;
  readonly #onError: (error: unknown) => string;
  /** Calls whose tool part exists on the message this stream writes. */
  readonly #shown = new Set<string>();
  /** Calls whose input is complete on the message this stream writes. */
  readonly #available = new Set<string>();
  /** Calls of the page's earlier messages, which this stream cannot update: their name and input, to put them up again. */
  readonly #elsewhere = new Map<string, { name: string; input: unknown }>();
  /** Calls with an output or error on the page, or an open question. */
  readonly #settled = new Set<string>();
  /** Calls the page denied on the message this stream writes: their answer is the protocol's denial, not an error. */
  readonly #denied = new Set<string>();
  /** Approval ids the page's earlier messages hold: `addToolApprovalResponse({ id })` answers the first part with the id. */
  readonly #earlierApprovalIds = new Set<string>();
  readonly #words: ModelParts;
  #step = false;

  constructor(emit: (chunk: UIMessageChunk) => void, page: readonly UIMessage[], onError: (error: unknown) => string) {
    this.#emit = emit;
    this.#words = new ModelParts(emit);
    this.#onError = onError;
    // The page's client continues its last message when that is the assistant's; any other message is out of reach.
    const last = page.at(-1);
    const continued = last?.role === "assistant" ? last : undefined;
    for (const m of page) {
      for (const p of m.parts ?? []) if (p.type === "data-ask-user") this.#settled.add(String((p.data as { toolCallId?: unknown })?.toolCallId));
      for (const p of toolPartsOf(m)) {
        if (p.state === "output-available" || p.state === "output-error" || p.state === "output-denied") this.#settled.add(p.toolCallId);
        if (m !== continued && typeof p.approval?.id === "string") this.#earlierApprovalIds.add(p.approval.id);
        if (m === continued) {
          if (p.state === "approval-responded" && p.approval?.approved === false) this.#denied.add(p.toolCallId);
          this.#shown.add(p.toolCallId);
          this.#available.add(p.toolCallId);
          this.#elsewhere.delete(p.toolCallId);
        } else this.#elsewhere.set(p.toolCallId, { name: p.name, input: p.input });
      }
    }
  }

  #onPageOrEarlier(toolCallId: string): boolean {
    return this.#available.has(toolCallId) || this.#elsewhere.has(toolCallId);
  }

  /** Put a call of an earlier message on this one, so that its output, approval or answer can reach the page. */
  #onPage(toolCallId: string, call?: ToolCall): void {
    if (this.#available.has(toolCallId)) return;
    const earlier = this.#elsewhere.get(toolCallId);
    if (call !== undefined) this.#inputAvailable(toolCallId, call.name, call.arguments, false);
    else if (earlier !== undefined) this.#inputAvailable(toolCallId, earlier.name, earlier.input, false);
  }

  write(event: AgentEvent<string>): void {
    switch (event.type) {
      case "turn_started":
        return;
      case "text_delta":
        this.#openStep();
        this.#words.text(event.text);
        return;
      case "reasoning":
        this.#openStep();
        this.#words.reasoning(event);
        return;
      case "tool_input":
        this.#toolInput(event);
        return;
      case "tool_event":
        this.#toolEvent(event.event);
        return;
      case "call_report":
        this.#report(event.report);
        return;
      case "subagent_event":
        this.#emit({
          type: "data-subagent-event",
          data: { toolCallId: event.toolCallId, toolName: event.toolName, event: jsonSafe(event.event) },
          transient: true,
        });
        return;
      case "model_reply":
        this.#modelReply(event);
        return;
      case "turn_completed":
        this.#turnCompleted(event.messages);
        return;
      case "agent_halted":
        this.#halted(event);
        return;
      default:
        unknownEvent(event);
    }
  }

  #openStep(): void {
    if (this.#step) return;
    this.#step = true;
    this.#emit({ type: "start-step" });
  }

  #closeStep(): void {
    this.#words.close();
    if (this.#step) this.#emit({ type: "finish-step" });
    this.#step = false;
  }

  /**
   * The model is done with its turn: its text and calls have streamed already, so the page gets
   * what it adds: the reason the model stopped, as the message's metadata (`modelReply`, merged
   * into what the page has; the latest turn's wins), while the turn's calls still run.
   */
  #modelReply(event: ModelReplyEvent): void {
    this.#emit({ type: "message-metadata", messageMetadata: { modelReply: { turn: event.turn, finishReason: event.finishReason } } });
  }

  #toolInput(event: ToolInputEvent): void {
    const { toolCallId, toolName } = event;
    if (this.#available.has(toolCallId)) return;
    this.#openStep();
    if (!this.#shown.has(toolCallId)) {
      this.#shown.add(toolCallId);
      this.#emit({ type: "tool-input-start", toolCallId, toolName });
    }
    if (event.state === "streaming") this.#emit({ type: "tool-input-delta", toolCallId, inputTextDelta: event.delta });
    if (event.state === "complete") this.#inputAvailable(toolCallId, toolName, parsedInput(event.text));
  }

  #inputAvailable(toolCallId: string, toolName: string, input: unknown, step = true): void {
    if (step) this.#openStep();
    this.#shown.add(toolCallId);
    this.#available.add(toolCallId);
    this.#emit({ type: "tool-input-available", toolCallId, toolName, input });
  }

  #toolEvent(event: ToolEvent): void {
    const { toolCallId, toolName } = event;
    switch (event.type) {
      case "tool_execution_started":
        if (this.#elsewhere.has(toolCallId)) this.#onPage(toolCallId);
        else if (!this.#available.has(toolCallId)) this.#inputAvailable(toolCallId, toolName, event.arguments);
        return;
      case "tool_execution_completed":
        return;
      case "tool_result_encoded":
      case "tool_halt":
        this.#output(toolCallId, event.content, event.isError);
        return;
      case "ask_user_requested":
        this.#settled.add(toolCallId);
        this.#emit({ type: "data-ask-user", id: toolCallId, data: { toolCallId, question: event.question, opts: jsonSafe(event.opts) } });
        return;
      default:
        unknownEvent(event);
    }
  }

  #output(toolCallId: string, content: string, isError: boolean): void {
    this.#onPage(toolCallId);
    this.#settled.add(toolCallId);
    // A denial (the only answer the loop gives a call the page denied) ends the part `output-denied`, the
    // state `ai` requires of a part whose approval says `approved: false`; its text is rebuilt on the way back.
    if (this.#denied.has(toolCallId)) this.#emit({ type: "tool-output-denied", toolCallId });
    else
      this.#emit(
        isError ? { type: "tool-output-error", toolCallId, errorText: content } : { type: "tool-output-available", toolCallId, output: outputOf(content) },
      );
  }

  /**
   * The approval id of a call put up for approval: its id, unless an earlier message of the page
   * holds that id already (the user wrote instead of deciding, and the call is put up again on
   * this message). `useChat`'s `addToolApprovalResponse({ id })` answers the first part with the
   * id it is given, and sends only once the last message is answered: the copy on this message
   * gets an id of its own (`<toolCallId>~2`, `~3`, …), so one click on it sends.
   */
  #approvalIdOf(toolCallId: string): string {
    let id = toolCallId;
    for (let n = 2; this.#earlierApprovalIds.has(id); n++) id = `${toolCallId}~${n}`;
    return id;
  }

  #report(report: CallReport): void {
    const { toolCallId, toolName } = report;
    if (report.type === "progress") {
      const { type: _type, index: _index, ...fields } = report;
      this.#emit({ type: "data-tool-progress", id: `progress-${toolCallId}`, data: jsonSafe(fields) });
      return;
    }
    this.#emit({ type: "data-call-report", data: { toolCallId, toolName, report: jsonSafe(report) }, transient: true });
  }

  /** What the turn added without an event of its own: calls that never ran (manual, awaiting approval), answers that never ran (denials). */
  #turnCompleted(added: readonly Message[]): void {
    for (const m of added) {
      if (m.role === "assistant")
        for (const call of m.toolCalls ?? []) if (!this.#available.has(call.id)) this.#inputAvailable(call.id, call.name, call.arguments);
      if (m.role === "tool" && !this.#settled.has(m.toolCallId)) this.#output(m.toolCallId, m.content, m.isError);
    }
    this.#closeStep();
  }

  #halted(event: AgentHaltedEvent<string>): void {
    // A turn still open failed or was cancelled: the loop adds nothing of it, so the page drops it too.
    if (this.#step) this.#emit({ type: "reset-step" });
    this.#step = false;
    this.#words.drop();
    // Answers a resume committed before its turn failed (a denial has no event of its own).
    for (const m of event.messages)
      if (m.role === "tool" && !this.#settled.has(m.toolCallId) && this.#onPageOrEarlier(m.toolCallId)) this.#output(m.toolCallId, m.content, m.isError);
    const metadata = event.metadata as { pendingApprovals?: readonly PendingApproval[]; manualToolCalls?: readonly ToolCall[]; error?: unknown };
    for (const call of metadata.manualToolCalls ?? []) this.#onPage(call.id, call);
    for (const p of metadata.pendingApprovals ?? []) {
      const approvalId = this.#approvalIdOf(p.toolCallId);
      this.#onPage(p.toolCallId, { id: p.toolCallId, name: p.toolName, arguments: p.arguments });
      this.#emit(
        p.token === undefined
          ? { type: "tool-approval-request", approvalId, toolCallId: p.toolCallId }
          : { type: "tool-approval-request", approvalId, toolCallId: p.toolCallId, signature: p.token },
      );
    }
    if (event.haltedReason === "error") this.#emit({ type: "error", errorText: this.#onError(metadata.error) });
    if (event.haltedReason === "cancelled") this.#emit({ type: "abort" });
    const messageMetadata = event.usage === undefined ? { haltedReason: event.haltedReason } : { haltedReason: event.haltedReason, usage: { ...event.usage } };
    this.#emit({ type: "finish", finishReason: finishReasonOf(event), messageMetadata });
  }
}

/** A call's argument text as the part's input: its JSON value, or the text itself when it is not JSON. */
function parsedInput(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Every event is handled above: a new kind of event fails the type check here until it is. */
function unknownEvent(_event: never): void {}
