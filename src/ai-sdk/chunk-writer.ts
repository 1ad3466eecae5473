import type { UIMessage, UIMessageChunk } from "ai";
import type { AgentHaltedEvent, AskUserRequested, CallReport, ModelReplyEvent, ReasoningEvent, ToolCall } from "../index.js";
import { type HaltMetadata, ProtocolWriter, type SubagentValue, type WholeCall } from "../ui-protocol/index.js";
import { toolPartsOf } from "./tool-parts.js";
import { jsonSafe } from "../util/json-safe.js";
import { finishReasonOf } from "./finish-reason.js";
import { outputOf } from "./tool-output.js";
import { ModelParts } from "./model-parts.js";

/**
 * One run's UI message chunks: which step and parts are open, and which calls the page has. When
 * a call's chunks go out is {@link ProtocolWriter}'s (`started`: its tool part exists on the
 * message this stream writes; `complete`: its input is there; `answered`: its output, error or
 * question is on the page); here, how they look, and what only `useChat` needs: the calls of the
 * page's earlier messages put up again, denials, and approval ids.
 */
export class ChunkWriter extends ProtocolWriter {
  readonly #emit: (chunk: UIMessageChunk) => void;
  readonly #onError: (error: unknown) => string;
  /** Calls of the page's earlier messages, which this stream cannot update: their name and input, to put them up again. */
  readonly #elsewhere = new Map<string, { name: string; input: unknown }>();
  /** Calls the page denied on the message this stream writes: their answer is the protocol's denial, not an error. */
  readonly #denied = new Set<string>();
  /** Approval ids the page's earlier messages hold: `addToolApprovalResponse({ id })` answers the first part with the id. */
  readonly #earlierApprovalIds = new Set<string>();
  readonly #words: ModelParts;
  #step = false;

  constructor(emit: (chunk: UIMessageChunk) => void, page: readonly UIMessage[], onError: (error: unknown) => string) {
    super();
    this.#emit = emit;
    this.#words = new ModelParts(emit);
    this.#onError = onError;
    // The page's client continues its last message when that is the assistant's; any other message is out of reach.
    const last = page.at(-1);
    const continued = last?.role === "assistant" ? last : undefined;
    for (const m of page) {
      for (const p of m.parts ?? []) if (p.type === "data-ask-user") this.answered.add(String((p.data as { toolCallId?: unknown })?.toolCallId));
      for (const p of toolPartsOf(m)) {
        if (p.state === "output-available" || p.state === "output-error" || p.state === "output-denied") this.answered.add(p.toolCallId);
        if (m !== continued && typeof p.approval?.id === "string") this.#earlierApprovalIds.add(p.approval.id);
        if (m === continued) {
          if (p.state === "approval-responded" && p.approval?.approved === false) this.#denied.add(p.toolCallId);
          this.started.add(p.toolCallId);
          this.complete.add(p.toolCallId);
          this.#elsewhere.delete(p.toolCallId);
        } else this.#elsewhere.set(p.toolCallId, { name: p.name, input: p.input });
      }
    }
  }

  /** Put a call of an earlier message on this one, so that its output, approval or answer can reach the page. */
  #onPage(toolCallId: string, call?: ToolCall): void {
    if (this.complete.has(toolCallId)) return;
    const earlier = this.#elsewhere.get(toolCallId);
    if (call !== undefined) this.#inputAvailable(toolCallId, call.name, call.arguments, false);
    else if (earlier !== undefined) this.#inputAvailable(toolCallId, earlier.name, earlier.input, false);
  }

  protected turnStarted(): void {}

  protected text(_turn: number, text: string): void {
    this.#openStep();
    this.#words.text(text);
  }

  protected reasoning(event: ReasoningEvent): void {
    this.#openStep();
    this.#words.reasoning(event);
  }

  /** A call's input, streaming or whole, belongs to a step. */
  protected toolInput(toolCallId: string): void {
    if (!this.complete.has(toolCallId)) this.#openStep();
  }

  protected inputStart(_turn: number, toolCallId: string, toolName: string): void {
    this.#emit({ type: "tool-input-start", toolCallId, toolName });
  }

  protected inputDelta(toolCallId: string, delta: string): void {
    this.#emit({ type: "tool-input-delta", toolCallId, inputTextDelta: delta });
  }

  protected inputEnd(toolCallId: string, toolName: string, text: string): void {
    this.#inputAvailable(toolCallId, toolName, parsedInput(text));
  }

  /** A call of an earlier message that starts running (approved on it) is put on this message as it was there. */
  protected override callStarted(turn: number, call: WholeCall): void {
    if (this.#elsewhere.has(call.id)) this.#onPage(call.id);
    else super.callStarted(turn, call);
  }

  protected wholeInput(_turn: number, call: WholeCall): void {
    this.#inputAvailable(call.id, call.name, call.arguments);
  }

  #inputAvailable(toolCallId: string, toolName: string, input: unknown, step = true): void {
    if (step) this.#openStep();
    this.started.add(toolCallId);
    this.complete.add(toolCallId);
    this.#emit({ type: "tool-input-available", toolCallId, toolName, input });
  }

  protected result(toolCallId: string, content: string, isError: boolean): void {
    this.#onPage(toolCallId);
    // A denial (the only answer the loop gives a call the page denied) ends the part `output-denied`, the
    // state `ai` requires of a part whose approval says `approved: false`; its text is rebuilt on the way back.
    if (this.#denied.has(toolCallId)) this.#emit({ type: "tool-output-denied", toolCallId });
    else
      this.#emit(
        isError ? { type: "tool-output-error", toolCallId, errorText: content } : { type: "tool-output-available", toolCallId, output: outputOf(content) },
      );
  }

  protected askUser(event: AskUserRequested): void {
    const { toolCallId } = event;
    this.#emit({ type: "data-ask-user", id: toolCallId, data: { toolCallId, question: event.question, opts: jsonSafe(event.opts) } });
  }

  protected report(report: CallReport): void {
    const { toolCallId, toolName } = report;
    if (report.type === "progress") {
      const { type: _type, index: _index, ...fields } = report;
      this.#emit({ type: "data-tool-progress", id: `progress-${toolCallId}`, data: jsonSafe(fields) });
      return;
    }
    this.#emit({ type: "data-call-report", data: { toolCallId, toolName, report: jsonSafe(report) }, transient: true });
  }

  protected subagent(value: SubagentValue): void {
    this.#emit({ type: "data-subagent-event", data: value, transient: true });
  }

  /**
   * The model is done with its turn: its text and calls have streamed already, so the page gets
   * what it adds: the reason the model stopped, as the message's metadata (`modelReply`, merged
   * into what the page has; the latest turn's wins), while the turn's calls still run.
   */
  protected modelReply(event: ModelReplyEvent): void {
    this.#emit({ type: "message-metadata", messageMetadata: { modelReply: { turn: event.turn, finishReason: event.finishReason } } });
  }

  /** The question went out as its `ask-user` data part when the call asked it. */
  protected question(): void {}

  #openStep(): void {
    if (this.#step) return;
    this.#step = true;
    this.#emit({ type: "start-step" });
  }

  protected closeStep(): void {
    this.#words.close();
    if (this.#step) this.#emit({ type: "finish-step" });
    this.#step = false;
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

  protected halted(event: AgentHaltedEvent<string>): void {
    // A turn still open failed or was cancelled: the loop adds nothing of it, so the page drops it too.
    if (this.#step) this.#emit({ type: "reset-step" });
    this.#step = false;
    this.#words.drop();
    // Answers a resume committed before its turn failed (a denial has no event of its own).
    for (const m of event.messages)
      if (m.role === "tool" && !this.answered.has(m.toolCallId) && (this.complete.has(m.toolCallId) || this.#elsewhere.has(m.toolCallId)))
        this.answer(m.toolCallId, m.content, m.isError);
    const metadata = event.metadata as HaltMetadata;
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
