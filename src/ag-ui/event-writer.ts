import type { AGUIEvent, EventType } from "@ag-ui/core";
import type { AgentEvent, AgentHaltedEvent, CallReport, Message, ModelReplyEvent, ToolCall, ToolEvent, ToolInputEvent } from "../index.js";
import { jsonSafe } from "../util/json-safe.js";
import { outcomeOf, usageOf } from "./run-outcome.js";
import { ReasoningSpan } from "./reasoning-span.js";

/** The event types used here, as the strings they are on the wire (no run-time import of `@ag-ui/core`). */
export const T = {
  RUN_STARTED: "RUN_STARTED",
  RUN_FINISHED: "RUN_FINISHED",
  RUN_ERROR: "RUN_ERROR",
  STEP_STARTED: "STEP_STARTED",
  STEP_FINISHED: "STEP_FINISHED",
  TEXT_MESSAGE_START: "TEXT_MESSAGE_START",
  TEXT_MESSAGE_CONTENT: "TEXT_MESSAGE_CONTENT",
  TEXT_MESSAGE_END: "TEXT_MESSAGE_END",
  TOOL_CALL_START: "TOOL_CALL_START",
  TOOL_CALL_ARGS: "TOOL_CALL_ARGS",
  TOOL_CALL_END: "TOOL_CALL_END",
  TOOL_CALL_RESULT: "TOOL_CALL_RESULT",
  CUSTOM: "CUSTOM",
} as unknown as typeof EventType;

/** One run's events: which messages, calls and steps are open, and which calls the client has. */
export class EventWriter {
  readonly #emit: (e: AGUIEvent) => void;
  readonly #threadId: string;
  readonly #runId: string;
  readonly #onError: (error: unknown) => string;
  /** Calls whose TOOL_CALL_START went out, and those whose TOOL_CALL_END did too. */
  readonly #started = new Set<string>();
  readonly #ended = new Set<string>();
  readonly #answered = new Set<string>();
  readonly #reasoning: ReasoningSpan;
  #step: string | undefined;
  #text: string | undefined;

  constructor(emit: (e: AGUIEvent) => void, threadId: string, runId: string, onError: (error: unknown) => string, conversation: readonly Message[]) {
    this.#emit = emit;
    this.#reasoning = new ReasoningSpan(emit, runId);
    for (const m of conversation) {
      if (m.role === "assistant") for (const call of m.toolCalls ?? []) this.#known(call.id);
      if (m.role === "tool") this.#answered.add(m.toolCallId);
    }
    this.#threadId = threadId;
    this.#runId = runId;
    this.#onError = onError;
  }

  write(event: AgentEvent<string>): void {
    switch (event.type) {
      case "turn_started":
        this.#step = `turn ${event.turn}`;
        this.#emit({ type: T.STEP_STARTED, stepName: this.#step });
        return;
      case "text_delta":
        if (event.text === "") return;
        this.#reasoning.close();
        if (this.#text === undefined) {
          this.#text = this.#messageId(event.turn);
          this.#emit({ type: T.TEXT_MESSAGE_START, messageId: this.#text, role: "assistant" });
        }
        this.#emit({ type: T.TEXT_MESSAGE_CONTENT, messageId: this.#text, delta: event.text });
        return;
      case "reasoning":
        this.#closeText();
        this.#reasoning.write(event);
        return;
      case "tool_input":
        this.#reasoning.close();
        this.#toolInput(event);
        return;
      case "tool_event":
        this.#toolEvent(event.turn, event.event);
        return;
      case "call_report":
        this.#report(event.report);
        return;
      case "subagent_event":
        this.#emit({
          type: T.CUSTOM,
          name: "toolrx.subagent_event",
          value: { toolCallId: event.toolCallId, toolName: event.toolName, event: jsonSafe(event.event) },
        });
        return;
      case "model_reply":
        this.#modelReply(event);
        return;
      case "turn_completed":
        this.#turnCompleted(event.turn, event.messages);
        return;
      case "agent_halted":
        this.#halted(event);
        return;
      default:
        unknownEvent(event);
    }
  }

  /**
   * The model is done with its turn while its calls may still run: its text message ends now,
   * and a `toolrx.model_reply` custom event tells why it stopped (AG-UI has no event of its own
   * for a model's finish reason; its text and calls have streamed already).
   */
  #modelReply(event: ModelReplyEvent): void {
    this.#reasoning.close();
    this.#closeText();
    this.#emit({ type: T.CUSTOM, name: "toolrx.model_reply", value: { turn: event.turn, finishReason: event.finishReason } });
  }

  #known(id: string): void {
    this.#started.add(id);
    this.#ended.add(id);
  }

  #messageId(turn: number): string {
    return `${this.#runId}:turn-${turn}`;
  }

  #toolInput(event: ToolInputEvent): void {
    const { toolCallId } = event;
    if (this.#ended.has(toolCallId)) return;
    if (!this.#started.has(toolCallId)) this.#start(event.turn, toolCallId, event.toolName);
    if (event.state === "streaming" && event.delta !== "") this.#emit({ type: T.TOOL_CALL_ARGS, toolCallId, delta: event.delta });
    if (event.state === "complete") this.#end(toolCallId);
  }

  #start(turn: number, toolCallId: string, toolName: string): void {
    this.#reasoning.close();
    this.#started.add(toolCallId);
    this.#emit({ type: T.TOOL_CALL_START, toolCallId, toolCallName: toolName, parentMessageId: this.#messageId(turn) });
  }

  #end(toolCallId: string): void {
    this.#ended.add(toolCallId);
    this.#emit({ type: T.TOOL_CALL_END, toolCallId });
  }

  /** A whole call at once: a model that does not stream arguments, or a call the run did not start (manual, awaiting approval). */
  #whole(turn: number, call: Pick<ToolCall, "id" | "name" | "arguments">): void {
    if (this.#ended.has(call.id)) return;
    if (!this.#started.has(call.id)) this.#start(turn, call.id, call.name);
    this.#emit({ type: T.TOOL_CALL_ARGS, toolCallId: call.id, delta: JSON.stringify(call.arguments) });
    this.#end(call.id);
  }

  #toolEvent(turn: number, event: ToolEvent): void {
    switch (event.type) {
      case "tool_execution_started":
        this.#whole(turn, { id: event.toolCallId, name: event.toolName, arguments: event.arguments });
        return;
      case "tool_execution_completed":
        return;
      case "tool_result_encoded":
      case "tool_halt":
        this.#result(turn, event.toolCallId, event.content, event.isError);
        return;
      case "ask_user_requested":
        this.#result(turn, event.toolCallId, "<awaiting user response>", false);
        return;
      default:
        unknownEvent(event);
    }
  }

  #result(_turn: number, toolCallId: string, content: string, isError: boolean): void {
    if (this.#started.has(toolCallId) && !this.#ended.has(toolCallId)) this.#end(toolCallId);
    this.#answered.add(toolCallId);
    this.#emit({
      type: T.TOOL_CALL_RESULT,
      messageId: `${toolCallId}:result`,
      toolCallId,
      content,
      role: "tool",
      ...(isError ? { metadata: { isError: true } } : {}),
    });
  }

  #report(report: CallReport): void {
    const name = report.type === "progress" ? "toolrx.progress" : "toolrx.call_report";
    this.#emit({ type: T.CUSTOM, name, value: jsonSafe(report) });
  }

  #closeText(): void {
    if (this.#text !== undefined) this.#emit({ type: T.TEXT_MESSAGE_END, messageId: this.#text });
    this.#text = undefined;
  }

  #closeStep(): void {
    this.#reasoning.close();
    this.#closeText();
    if (this.#step !== undefined) this.#emit({ type: T.STEP_FINISHED, stepName: this.#step });
    this.#step = undefined;
  }

  /** What the turn added without an event of its own: calls that never ran, denials, and the question put to the user. */
  #turnCompleted(turn: number, added: readonly Message[]): void {
    for (const m of added) {
      if (m.role === "assistant" && m.metadata?.askUser === true) {
        this.#closeText();
        const messageId = `${this.#messageId(turn)}:question`;
        // The question's metadata (`askUser`, its call) rides on the start: HttpAgent keeps it on the message, and fromRunAgentInput reads it back.
        this.#emit({ type: T.TEXT_MESSAGE_START, messageId, role: "assistant", metadata: jsonSafe(m.metadata) as Record<string, unknown> });
        if (m.content !== "") this.#emit({ type: T.TEXT_MESSAGE_CONTENT, messageId, delta: m.content });
        this.#emit({ type: T.TEXT_MESSAGE_END, messageId });
      } else if (m.role === "assistant") for (const call of m.toolCalls ?? []) this.#whole(turn, call);
      if (m.role === "tool" && !this.#answered.has(m.toolCallId)) this.#result(turn, m.toolCallId, m.content, m.isError);
    }
    this.#closeStep();
  }

  #halted(event: AgentHaltedEvent<string>): void {
    // Calls a failed turn left open are closed, so every START has its END.
    for (const id of this.#started) if (!this.#ended.has(id)) this.#end(id);
    this.#closeStep();
    const usage = usageOf(event.usage);
    if (event.haltedReason === "error") {
      const error = (event.metadata as { error?: unknown }).error;
      this.#emit({ type: T.RUN_ERROR, message: this.#onError(error), code: "error", ...(usage === undefined ? {} : { usage }) });
      return;
    }
    const outcome = outcomeOf(event);
    this.#emit({
      type: T.RUN_FINISHED,
      threadId: this.#threadId,
      runId: this.#runId,
      result: { haltedReason: event.haltedReason },
      outcome,
      ...(usage === undefined ? {} : { usage }),
    });
  }
}

/** Every event is handled above: a new kind fails the type check here until it is. */
function unknownEvent(_event: never): void {}
