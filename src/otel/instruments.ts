import type { Counter, Histogram, Meter } from "@opentelemetry/api";
import { METRIC_ACTIVE_CALLS, METRIC_LATE_SETTLEMENTS, METRIC_AGENT_DURATION, METRIC_QUEUE_WAIT, METRIC_TIMEOUTS, METRIC_TOOL_DURATION } from "./semconv.js";

/** The metric instruments toolrx records to. */
export interface Instruments {
  /** `gen_ai.execute_tool.duration`: seconds from a call's start to its message, by tool and outcome. */
  readonly toolDuration: Histogram;
  /**
   * Calls running now (holding a slot), by tool: reported as `toolrx.execute_tool.active` when
   * metrics are collected, rather than added to on every call, which would cost two attribute
   * lookups in the SDK per call for a number read once a minute.
   */
  readonly activeCalls: Map<string, number>;
  /** `toolrx.execute_tool.queue_wait`: seconds a call waited for a slot, by tool. */
  readonly queueWait: Histogram;
  /** `toolrx.execute_tool.timeouts`: calls answered `timeout`, by tool. */
  readonly timeouts: Counter;
  /** `toolrx.execute_tool.late_settlements`: handlers the runner stopped waiting for, by whether they finished after all. */
  readonly lateSettlements: Counter;
  /** `gen_ai.invoke_agent.duration`: seconds of a whole loop run, by halted reason. */
  readonly agentDuration: Histogram;
}

// The conventions' advised buckets: tool calls 10 ms to 80 s, agent runs 0.1 s to 7 min.
const TOOL_BUCKETS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];
const AGENT_BUCKETS = [0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 6.4, 12.8, 25.6, 51.2, 102.4, 204.8, 409.6];
// Queue waits are usually far below a tool's own run, so the buckets start at 1 ms.
const QUEUE_BUCKETS = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30];

const cache = new WeakMap<Meter, Instruments>();

/** The instruments of `meter`, created once per meter. */
export function instrumentsOf(meter: Meter): Instruments {
  let instruments = cache.get(meter);
  if (instruments === undefined) {
    instruments = {
      toolDuration: meter.createHistogram(METRIC_TOOL_DURATION, {
        description: "The duration of a single tool execution.",
        unit: "s",
        advice: { explicitBucketBoundaries: TOOL_BUCKETS },
      }),
      activeCalls: new Map(),
      queueWait: meter.createHistogram(METRIC_QUEUE_WAIT, {
        description: "How long a tool call waited for a concurrency slot before it started.",
        unit: "s",
        advice: { explicitBucketBoundaries: QUEUE_BUCKETS },
      }),
      timeouts: meter.createCounter(METRIC_TIMEOUTS, {
        description: "Tool calls answered `timeout` because a deadline passed.",
        unit: "{timeout}",
      }),
      lateSettlements: meter.createCounter(METRIC_LATE_SETTLEMENTS, {
        description: "Handlers abandoned at a deadline or a cancel: whether they finished later, or were still running after settleGrace.",
        unit: "{call}",
      }),
      agentDuration: meter.createHistogram(METRIC_AGENT_DURATION, {
        description: "The duration of an agent loop run, from subscribe to its last event.",
        unit: "s",
        advice: { explicitBucketBoundaries: AGENT_BUCKETS },
      }),
    };
    const { activeCalls } = instruments;
    meter
      .createObservableUpDownCounter(METRIC_ACTIVE_CALLS, {
        description: "Tool calls running now: started and not yet answered.",
        unit: "{call}",
      })
      .addCallback((result) => {
        for (const [toolName, count] of activeCalls) result.observe(count, { "gen_ai.tool.name": toolName });
      });
    cache.set(meter, instruments);
  }
  return instruments;
}
