import { deliver, type CallReport } from "../../run/results/call-report.js";
import type { AgentEvent } from "../events/index.js";

/**
 * The `onCallReport` a turn's runner gets: the host's own listener first, as it was, then each
 * report as an agent event (`call_report`), and a subagent's events (`nested_event` reports) as
 * `subagent_event`s nested under their call. The host's listener still sees every report.
 */
export function reportsTo(own: ((report: CallReport) => void) | undefined, emit: (event: AgentEvent) => void, turn: number): (report: CallReport) => void {
  return (report) => {
    // A listener that throws is dealt with as the runner deals with it: it must not break the call.
    if (own !== undefined) deliver(own, report);
    if (report.type === "nested_event") {
      emit({ type: "subagent_event", turn, toolCallId: report.toolCallId, toolName: report.toolName, event: report.event as AgentEvent });
    } else emit({ type: "call_report", turn, report });
  };
}
