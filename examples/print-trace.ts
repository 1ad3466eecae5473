/**
 * Print finished spans as trees, one per trace: name, duration, the attributes worth reading at
 * a glance, and the status. What a tracing backend shows, in a terminal.
 */
import { SpanStatusCode } from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";

/** Attributes shown beside each span, with short labels. */
const SHOWN: readonly [string, string][] = [
  ["toolrx.call.outcome", "outcome"],
  ["error.type", "error.type"],
  ["toolrx.policy.decision", "policy"],
  ["toolrx.halt.reason", "halt"],
  ["toolrx.deadline", "deadline"],
  ["toolrx.deadline.ms", "deadline ms"],
  ["toolrx.call.attempts", "attempts"],
  ["toolrx.agent.halted_reason", "halted"],
  ["gen_ai.conversation.id", "conversation"],
  ["gen_ai.response.finish_reasons", "finish"],
];

const ms = (span: ReadableSpan) => span.duration[0] * 1e3 + span.duration[1] / 1e6;
const startOf = (span: ReadableSpan) => span.startTime[0] * 1e3 + span.startTime[1] / 1e6;

export function printTrace(spans: readonly ReadableSpan[], print: (line: string) => void = console.log): void {
  const ids = new Set(spans.map((s) => s.spanContext().spanId));
  const children = new Map<string | undefined, ReadableSpan[]>();
  for (const span of spans) {
    const parent = span.parentSpanContext?.spanId;
    const key = parent !== undefined && ids.has(parent) ? parent : undefined;
    children.set(key, [...(children.get(key) ?? []), span]);
  }
  for (const list of children.values()) list.sort((a, b) => startOf(a) - startOf(b));
  const t0 = Math.min(...spans.map(startOf));

  const line = (span: ReadableSpan, prefix: string, last: boolean, root: boolean) => {
    const branch = root ? "" : last ? "└─ " : "├─ ";
    const details = SHOWN.flatMap(([key, label]) => (span.attributes[key] === undefined ? [] : [`${label}=${String(span.attributes[key])}`]));
    const waited = span.attributes["toolrx.call.queue_wait_ms"];
    if (typeof waited === "number" && waited >= 1) details.push(`queued ${Math.round(waited)} ms`);
    if (span.status.code === SpanStatusCode.ERROR) details.push("ERROR");
    for (const event of span.events) details.push(`event ${event.name}`);
    const at = `+${Math.round(startOf(span) - t0)}`.padStart(6);
    const took = `${Math.round(ms(span))} ms`.padStart(8);
    const turn = span.name === "turn" ? ` ${String(span.attributes["toolrx.turn"])}` : "";
    print(`${at} ${took}  ${prefix}${branch}${span.name}${turn}${details.length > 0 ? `  (${details.join(", ")})` : ""}`);
    const kids = children.get(span.spanContext().spanId) ?? [];
    kids.forEach((kid, i) => {
      line(kid, root ? "" : `${prefix}${last ? "   " : "│  "}`, i === kids.length - 1, false);
    });
  };
  print("start ms  took     span");
  for (const root of children.get(undefined) ?? []) {
    print(`trace ${root.spanContext().traceId}`);
    line(root, "", true, true);
  }
}
