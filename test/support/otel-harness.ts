import { context, type Span } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type DataPoint,
  type Histogram,
} from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan, type SpanProcessor } from "@opentelemetry/sdk-trace-base";

// One async context manager for the process, as an app's SDK setup registers it.
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());

/** Counts spans started and ended, to prove none is left open. */
class OpenSpans implements SpanProcessor {
  open = 0;
  onStart(): void {
    this.open++;
  }
  onEnd(): void {
    this.open--;
  }
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** A real SDK tracer and meter provider, exporting to memory. */
export function otelHarness() {
  const exporter = new InMemorySpanExporter();
  const counter = new OpenSpans();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter), counter] });
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 1_000_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    tracerProvider,
    meterProvider,
    /** Ended spans, in the order they ended. */
    spans: (): ReadableSpan[] => exporter.getFinishedSpans(),
    span(name: string): ReadableSpan {
      const found = exporter.getFinishedSpans().filter((s) => s.name === name);
      if (found.length !== 1)
        throw new Error(
          `expected one span "${name}", got ${found.length}: ${exporter
            .getFinishedSpans()
            .map((s) => s.name)
            .join(", ")}`,
        );
      return found[0] as ReadableSpan;
    },
    openSpans: () => counter.open,
    /** Run `fn` inside an active span of a test tracer; the span ends after. */
    withParent<T>(fn: (parent: Span) => T): T {
      return tracerProvider.getTracer("test").startActiveSpan("parent", (parent) => {
        try {
          return fn(parent);
        } finally {
          parent.end();
        }
      });
    },
    /** The data points of metric `name`, collected now. */
    async points(name: string): Promise<DataPoint<number | Histogram>[]> {
      await reader.forceFlush();
      const batches = metricExporter.getMetrics();
      const last = batches[batches.length - 1];
      const metric = last?.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === name);
      return (metric?.dataPoints ?? []) as DataPoint<number | Histogram>[];
    },
  };
}

export function parentId(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}
