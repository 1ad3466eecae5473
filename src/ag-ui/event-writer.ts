import type { AGUIEvent, EventType } from "@ag-ui/core";
import type { AgentHaltedEvent, AskUserRequested, AssistantMessage, CallReport, Message, ModelReplyEvent, ReasoningEvent } from "../index.js";
import { type HaltMetadata, ProtocolWriter, type SubagentValue, type WholeCall } from "../ui-protocol/index.js";
import { jsonSafe } from "../util/json-safe.js";
import { outcomeOf, usageOf } from "./run-outcome.js";
import { ReasoningSpan } from "./reasoning-span.js";

// Event types are their wire strings typed as `@ag-ui/core`'s enum members (`"RUN_STARTED" as
// EventType.RUN_STARTED`): the peer is imported for types alone, and no lookup table ships.

/**
 * One run's AG-UI events: which text message, reasoning span and step are open. When a call's
 * frames go out is {@link ProtocolWriter}'s: here, how they look (`TOOL_CALL_START`, `ARGS`,
 * `END`, `RESULT`), and that calls of the conversation the run started from are the client's already.
 */
export class EventWriter extends ProtocolWriter {
  readonly #emit: (e: AGUIEvent) => void;
  readonly #threadId: string;
  readonly #runId: string;
  readonly #onError: (error: unknown) => string;
  readonly #reasoning: ReasoningSpan;
  #step: string | undefined;
  #text: string | undefined;

  constructor(emit: (e: AGUIEvent) => void, threadId: string, runId: string, onError: (error: unknown) => string, conversation: readonly Message[]) {
    super();
    this.#emit = emit;
    this.#reasoning = new ReasoningSpan(emit, runId);
    for (const m of conversation) {
      if (m.role === "assistant")
        for (const call of m.toolCalls ?? []) {
          this.started.add(call.id);
          this.complete.add(call.id);
        }
      if (m.role === "tool") this.answered.add(m.toolCallId);
    }
    this.#threadId = threadId;
    this.#runId = runId;
    this.#onError = onError;
  }

  protected turnStarted(turn: number): void {
    this.#step = `turn ${turn}`;
    this.#emit({ type: "STEP_STARTED" as EventType.STEP_STARTED, stepName: this.#step });
  }

  protected text(turn: number, text: string): void {
    if (text === "") return;
    this.#reasoning.close();
    if (this.#text === undefined) {
      this.#text = this.#messageId(turn);
      this.#emit({ type: "TEXT_MESSAGE_START" as EventType.TEXT_MESSAGE_START, messageId: this.#text, role: "assistant" });
    }
    this.#emit({ type: "TEXT_MESSAGE_CONTENT" as EventType.TEXT_MESSAGE_CONTENT, messageId: this.#text, delta: text });
  }

  protected reasoning(event: ReasoningEvent): void {
    this.#closeText();
    this.#reasoning.write(event);
  }

  /** A call's input ends any reasoning span: AG-UI does not nest a call in one. */
  protected toolInput(): void {
    this.#reasoning.close();
  }

  protected inputStart(turn: number, toolCallId: string, toolName: string): void {
    this.#reasoning.close();
    this.#emit({ type: "TOOL_CALL_START" as EventType.TOOL_CALL_START, toolCallId, toolCallName: toolName, parentMessageId: this.#messageId(turn) });
  }

  protected inputDelta(toolCallId: string, delta: string): void {
    if (delta !== "") this.#emit({ type: "TOOL_CALL_ARGS" as EventType.TOOL_CALL_ARGS, toolCallId, delta });
  }

  protected inputEnd(toolCallId: string): void {
    this.#end(toolCallId);
  }

  protected wholeInput(turn: number, call: WholeCall, started: boolean): void {
    if (!started) this.inputStart(turn, call.id, call.name);
    this.#emit({ type: "TOOL_CALL_ARGS" as EventType.TOOL_CALL_ARGS, toolCallId: call.id, delta: JSON.stringify(call.arguments) });
    this.#end(call.id);
  }

  protected result(toolCallId: string, content: string, isError: boolean): void {
    if (this.started.has(toolCallId) && !this.complete.has(toolCallId)) this.#end(toolCallId);
    this.#emit({
      type: "TOOL_CALL_RESULT" as EventType.TOOL_CALL_RESULT,
      messageId: `${toolCallId}:result`,
      toolCallId,
      content,
      role: "tool",
      ...(isError ? { metadata: { isError: true } } : {}),
    });
  }

  /** The question's call gets its placeholder answer; the question itself comes with the turn's messages (see {@link question}). */
  protected askUser(event: AskUserRequested): void {
    this.result(event.toolCallId, "<awaiting user response>", false);
  }

  protected report(report: CallReport): void {
    const name = report.type === "progress" ? "toolrx.progress" : "toolrx.call_report";
    this.#emit({ type: "CUSTOM" as EventType.CUSTOM, name, value: jsonSafe(report) });
  }

  protected subagent(value: SubagentValue): void {
    this.#emit({ type: "CUSTOM" as EventType.CUSTOM, name: "toolrx.subagent_event", value });
  }

  /**
   * The model is done with its turn while its calls may still run: its text message ends now,
   * and a `toolrx.model_reply` custom event tells why it stopped (AG-UI has no event of its own
   * for a model's finish reason; its text and calls have streamed already).
   */
  protected modelReply(event: ModelReplyEvent): void {
    this.#reasoning.close();
    this.#closeText();
    this.#emit({ type: "CUSTOM" as EventType.CUSTOM, name: "toolrx.model_reply", value: { turn: event.turn, finishReason: event.finishReason } });
  }

  protected question(turn: number, m: AssistantMessage): void {
    this.#closeText();
    const messageId = `${this.#messageId(turn)}:question`;
    // The question's metadata (`askUser`, its call) rides on the start: HttpAgent keeps it on the message, and fromRunAgentInput reads it back.
    this.#emit({
      type: "TEXT_MESSAGE_START" as EventType.TEXT_MESSAGE_START,
      messageId,
      role: "assistant",
      metadata: jsonSafe(m.metadata) as Record<string, unknown>,
    });
    if (m.content !== "") this.#emit({ type: "TEXT_MESSAGE_CONTENT" as EventType.TEXT_MESSAGE_CONTENT, messageId, delta: m.content });
    this.#emit({ type: "TEXT_MESSAGE_END" as EventType.TEXT_MESSAGE_END, messageId });
  }

  protected closeStep(): void {
    this.#reasoning.close();
    this.#closeText();
    if (this.#step !== undefined) this.#emit({ type: "STEP_FINISHED" as EventType.STEP_FINISHED, stepName: this.#step });
    this.#step = undefined;
  }

  protected halted(event: AgentHaltedEvent<string>): void {
    // Calls a failed turn left open are closed, so every START has its END.
    for (const id of this.started) if (!this.complete.has(id)) this.#end(id);
    this.closeStep();
    const usage = usageOf(event.usage);
    if (event.haltedReason === "error") {
      const { error } = event.metadata as HaltMetadata;
      this.#emit({ type: "RUN_ERROR" as EventType.RUN_ERROR, message: this.#onError(error), code: "error", ...(usage === undefined ? {} : { usage }) });
      return;
    }
    this.#emit({
      type: "RUN_FINISHED" as EventType.RUN_FINISHED,
      threadId: this.#threadId,
      runId: this.#runId,
      result: { haltedReason: event.haltedReason },
      outcome: outcomeOf(event),
      ...(usage === undefined ? {} : { usage }),
    });
  }

  #messageId(turn: number): string {
    return `${this.#runId}:turn-${turn}`;
  }

  #end(toolCallId: string): void {
    this.complete.add(toolCallId);
    this.#emit({ type: "TOOL_CALL_END" as EventType.TOOL_CALL_END, toolCallId });
  }

  #closeText(): void {
    if (this.#text !== undefined) this.#emit({ type: "TEXT_MESSAGE_END" as EventType.TEXT_MESSAGE_END, messageId: this.#text });
    this.#text = undefined;
  }
}
