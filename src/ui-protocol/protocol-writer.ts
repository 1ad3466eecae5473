import type {
  AgentEvent,
  AgentHaltedEvent,
  AskUserRequested,
  AssistantMessage,
  CallReport,
  Message,
  ModelReplyEvent,
  ReasoningEvent,
  ToolCall,
  ToolEvent,
  ToolInputEvent,
} from "../index.js";
import { jsonSafe } from "../util/json-safe.js";

/** A call as a client is shown it whole: its id, its tool and its arguments. */
export type WholeCall = Pick<ToolCall, "id" | "name" | "arguments">;

/** What a `subagent_event` becomes on either wire: the call it nests under and the event as plain JSON. */
export interface SubagentValue {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly event: unknown;
}

/**
 * One run's `AgentEvent`s written as a UI protocol's frames (AG-UI events, the AI SDK's UI
 * message chunks). This class decides *when* a call's frames go out, the same for both
 * protocols: a call's input begins once, streams, and is whole once; a call that never streamed
 * is shown whole when it starts running or when its turn ends; a turn's answers that had no event
 * of their own (denials, calls that never ran) follow when the turn completes, once each. The
 * protocol's subclass says *how* each one looks on its wire, and keeps what only its wire needs.
 */
export abstract class ProtocolWriter {
  /** Calls whose input the client has begun to see. */
  protected readonly started = new Set<string>();
  /** Calls whose input the client has whole: nothing more is written of their input. */
  protected readonly complete = new Set<string>();
  /** Calls whose answer (or open question) the client has. */
  protected readonly answered = new Set<string>();

  write(event: AgentEvent<string>): void {
    switch (event.type) {
      case "turn_started":
        this.turnStarted(event.turn);
        return;
      case "text_delta":
        this.text(event.turn, event.text);
        return;
      case "reasoning":
        this.reasoning(event);
        return;
      case "tool_input":
        this.#toolInput(event);
        return;
      case "tool_event":
        this.#toolEvent(event.turn, event.event);
        return;
      case "call_report":
        this.report(event.report);
        return;
      case "subagent_event":
        this.subagent({ toolCallId: event.toolCallId, toolName: event.toolName, event: jsonSafe(event.event) });
        return;
      case "model_reply":
        this.modelReply(event);
        return;
      case "turn_completed":
        this.#turnCompleted(event.turn, event.messages);
        return;
      case "agent_halted":
        this.halted(event);
        return;
      default:
        unknownEvent(event);
    }
  }

  #toolInput(event: ToolInputEvent): void {
    const { turn, toolCallId, toolName } = event;
    this.toolInput(toolCallId);
    if (this.complete.has(toolCallId)) return;
    if (!this.started.has(toolCallId)) {
      this.started.add(toolCallId);
      this.inputStart(turn, toolCallId, toolName);
    }
    if (event.state === "streaming") this.inputDelta(toolCallId, event.delta);
    if (event.state === "complete") {
      this.complete.add(toolCallId);
      this.inputEnd(toolCallId, toolName, event.text);
    }
  }

  #toolEvent(turn: number, event: ToolEvent): void {
    const { toolCallId } = event;
    switch (event.type) {
      case "tool_execution_started":
        this.callStarted(turn, { id: toolCallId, name: event.toolName, arguments: event.arguments });
        return;
      case "tool_execution_completed":
        return;
      case "tool_result_encoded":
      case "tool_halt":
        this.answer(toolCallId, event.content, event.isError);
        return;
      case "ask_user_requested":
        this.answered.add(toolCallId);
        this.askUser(event);
        return;
      default:
        unknownEvent(event);
    }
  }

  /** The call starts running: the client gets it whole unless it has it already. */
  protected callStarted(turn: number, call: WholeCall): void {
    this.whole(turn, call);
  }

  /** A whole call at once: a model that does not stream arguments, or a call the run did not start (manual, awaiting approval). */
  protected whole(turn: number, call: WholeCall): void {
    if (this.complete.has(call.id)) return;
    const started = this.started.has(call.id);
    this.started.add(call.id);
    this.complete.add(call.id);
    this.wholeInput(turn, call, started);
  }

  /** The call's answer: the client has it from now on. */
  protected answer(toolCallId: string, content: string, isError: boolean): void {
    this.answered.add(toolCallId);
    this.result(toolCallId, content, isError);
  }

  /** What the turn added without an event of its own: the question put to the user, calls that never ran, answers that never ran (denials). */
  #turnCompleted(turn: number, added: readonly Message[]): void {
    for (const m of added) {
      if (m.role === "assistant" && m.metadata?.askUser === true) this.question(turn, m);
      else if (m.role === "assistant") for (const call of m.toolCalls ?? []) this.whole(turn, call);
      if (m.role === "tool" && !this.answered.has(m.toolCallId)) this.answer(m.toolCallId, m.content, m.isError);
    }
    this.closeStep();
  }

  /** A turn begins. */
  protected abstract turnStarted(turn: number): void;
  /** A piece of the model's text. */
  protected abstract text(turn: number, text: string): void;
  /** A piece of the model's reasoning, or a piece complete. */
  protected abstract reasoning(event: ReasoningEvent): void;
  /** Any `tool_input` event, before the call's bookkeeping: what the wire closes or opens around a call's input. */
  protected abstract toolInput(toolCallId: string): void;
  /** The call's input begins (its first `tool_input`). */
  protected abstract inputStart(turn: number, toolCallId: string, toolName: string): void;
  /** A piece of the call's argument text. */
  protected abstract inputDelta(toolCallId: string, delta: string): void;
  /** The call's streamed input is complete: `text` is its argument text. */
  protected abstract inputEnd(toolCallId: string, toolName: string, text: string): void;
  /** The call's input all at once; `started` says whether its input had begun on the client. */
  protected abstract wholeInput(turn: number, call: WholeCall, started: boolean): void;
  /** The call's answer, as the tool message's content. */
  protected abstract result(toolCallId: string, content: string, isError: boolean): void;
  /** The call asked the user a question. */
  protected abstract askUser(event: AskUserRequested): void;
  /** A call's progress or another report of it. */
  protected abstract report(report: CallReport): void;
  /** An event of a subagent running inside a call. */
  protected abstract subagent(value: SubagentValue): void;
  /** The model is done with its turn, while its calls may still run. */
  protected abstract modelReply(event: ModelReplyEvent): void;
  /** The assistant message that puts the turn's questions to the user. */
  protected abstract question(turn: number, message: AssistantMessage): void;
  /** The turn is over: what is open of it closes. */
  protected abstract closeStep(): void;
  /** The run ends. */
  protected abstract halted(event: AgentHaltedEvent<string>): void;
}

/** Every event is handled above: a new kind fails the type check here until it is. */
function unknownEvent(_event: never): void {}
