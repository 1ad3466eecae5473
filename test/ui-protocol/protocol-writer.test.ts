import { describe, expect, it } from "vitest";
import type { AgentEvent, AgentHaltedEvent, AskUserRequested, AssistantMessage, CallReport, ModelReplyEvent, ReasoningEvent } from "../../src/index.js";
import { ProtocolWriter, type SubagentValue, type WholeCall } from "../../src/ui-protocol/index.js";

// Issue 44: one writer decides, for both UI protocols, when a call's frames go out; this
// protocol writes each decision as a line, so the decisions are what the test reads.

class Lines extends ProtocolWriter {
  readonly lines: string[] = [];
  protected turnStarted(turn: number): void {
    this.lines.push(`turn ${turn}`);
  }
  protected text(_turn: number, text: string): void {
    this.lines.push(`text ${text}`);
  }
  protected reasoning(event: ReasoningEvent): void {
    this.lines.push(`reasoning ${event.state}`);
  }
  protected toolInput(): void {}
  protected inputStart(_turn: number, toolCallId: string, toolName: string): void {
    this.lines.push(`start ${toolCallId} ${toolName}`);
  }
  protected inputDelta(toolCallId: string, delta: string): void {
    this.lines.push(`delta ${toolCallId} ${delta}`);
  }
  protected inputEnd(toolCallId: string, _toolName: string, text: string): void {
    this.lines.push(`end ${toolCallId} ${text}`);
  }
  protected wholeInput(_turn: number, call: WholeCall, started: boolean): void {
    this.lines.push(`whole ${call.id}${started ? " (started)" : ""}`);
  }
  protected result(toolCallId: string, content: string): void {
    this.lines.push(`result ${toolCallId} ${content}`);
  }
  protected askUser(event: AskUserRequested): void {
    this.lines.push(`ask ${event.toolCallId}`);
  }
  protected report(report: CallReport): void {
    this.lines.push(`report ${report.type}`);
  }
  protected subagent(value: SubagentValue): void {
    this.lines.push(`subagent ${JSON.stringify(value)}`);
  }
  protected modelReply(event: ModelReplyEvent): void {
    this.lines.push(`reply ${event.finishReason}`);
  }
  protected question(_turn: number, message: AssistantMessage): void {
    this.lines.push(`question ${message.content}`);
  }
  protected closeStep(): void {
    this.lines.push("close");
  }
  protected halted(event: AgentHaltedEvent<string>): void {
    this.lines.push(`halted ${event.haltedReason}`);
  }
}

function linesOf(events: readonly AgentEvent<string>[]): string[] {
  const writer = new Lines();
  for (const event of events) writer.write(event);
  return writer.lines;
}

const input = (state: "started" | "streaming" | "complete", text: string, delta = ""): AgentEvent<string> => ({
  type: "tool_input",
  turn: 0,
  state,
  toolCallId: "c1",
  toolName: "pay",
  text,
  delta,
});
const started = (toolCallId: string): AgentEvent<string> => ({
  type: "tool_event",
  turn: 0,
  event: { type: "tool_execution_started", index: 0, toolCallId, toolName: "pay", arguments: { eur: 5 } },
});
const encoded = (toolCallId: string, content: string): AgentEvent<string> => ({
  type: "tool_event",
  turn: 0,
  event: { type: "tool_result_encoded", index: 0, toolCallId, toolName: "pay", content, isError: false },
});

describe("ProtocolWriter", () => {
  describe("when a call's input streams", () => {
    it("begins it once, streams each piece, ends it once, and does not show it again when it runs or its turn ends", () => {
      const lines = linesOf([
        { type: "turn_started", turn: 0 },
        input("started", ""),
        input("streaming", '{"eur":', '{"eur":'),
        input("streaming", '{"eur":5}', "5}"),
        input("complete", '{"eur":5}'),
        input("complete", '{"eur":5}'),
        started("c1"),
        encoded("c1", "paid"),
        { type: "turn_completed", turn: 0, messages: [{ role: "assistant", content: "", toolCalls: [{ id: "c1", name: "pay", arguments: { eur: 5 } }] }] },
      ]);
      expect(lines).toEqual(["turn 0", "start c1 pay", 'delta c1 {"eur":', "delta c1 5}", 'end c1 {"eur":5}', "result c1 paid", "close"]);
    });
  });

  describe("when a call comes whole", () => {
    it("shows it whole once, when it starts running, and says whether its input had begun", () => {
      const lines = linesOf([started("c2"), started("c2"), input("started", ""), started("c1")]);
      expect(lines).toEqual(["whole c2", "start c1 pay", "whole c1 (started)"]);
    });
  });

  describe("when a turn completes", () => {
    it("shows the calls that never ran, the answers that had no event of their own once, and the question, then closes the step", () => {
      const lines = linesOf([
        encoded("c1", "paid"),
        {
          type: "turn_completed",
          turn: 0,
          messages: [
            {
              role: "assistant",
              content: "",
              toolCalls: [
                { id: "c1", name: "pay", arguments: {} },
                { id: "c2", name: "pay", arguments: {} },
              ],
            },
            { role: "tool", toolCallId: "c1", name: "pay", content: "paid", isError: false },
            { role: "tool", toolCallId: "c2", name: "pay", content: "denied", isError: true },
            { role: "assistant", content: "Which city?", metadata: { askUser: true, toolCallId: "c3" } },
          ],
        },
      ]);
      expect(lines).toEqual(["result c1 paid", "whole c1", "whole c2", "result c2 denied", "question Which city?", "close"]);
    });

    it("counts a question as the call's answer: its placeholder tool message is not answered again", () => {
      const lines = linesOf([
        { type: "tool_event", turn: 0, event: { type: "ask_user_requested", index: 0, toolCallId: "c3", toolName: "ask", question: "Which city?", opts: {} } },
        { type: "turn_completed", turn: 0, messages: [{ role: "tool", toolCallId: "c3", name: "ask", content: "<awaiting user response>", isError: false }] },
      ]);
      expect(lines).toEqual(["ask c3", "close"]);
    });
  });

  it("passes a subagent's event on as plain JSON (an error as its name and message), with the call it runs in", () => {
    const event = { type: "agent_halted", haltedReason: "error", messages: [], metadata: { error: new TypeError("boom") } } as const;
    const lines = linesOf([{ type: "subagent_event", turn: 0, toolCallId: "c1", toolName: "agent", event }]);
    const value = { toolCallId: "c1", toolName: "agent", event: { ...event, metadata: { error: { name: "TypeError", message: "boom" } } } };
    expect(lines).toEqual([`subagent ${JSON.stringify(value)}`]);
  });
});
