#!/usr/bin/env node
/**
 * What toolrx/otel costs per tool call, by CPU time (process.cpuUsage, user + system).
 *
 *   npm run bench:otel               (builds first; about a minute)
 *   npm run bench:otel -- --quick    (a few seconds: proves it runs)
 *
 * Every system runs the same batches of trivial synchronous calls (the worst case: a real tool
 * takes milliseconds), in paired rounds: each round runs every system once, in a rotating order,
 * and each system's cost is read against the untraced core of the same round, so the drift of a
 * shared machine cancels out. Two processes, so neither setup shapes the other's JIT:
 *
 * Without an SDK (what a library user pays who has not set OpenTelemetry up):
 *   core                      streamToolCalls, the subpath not in use
 *   core, otel imported       the same, with toolrx/otel imported: importing it changes nothing
 *   traced, no SDK            telemetry() with no provider set up (the API's no-ops): its own cost
 *
 * With the Node SDK set up (an async context manager, a BatchSpanProcessor and a metric reader
 * whose exporters do nothing):
 *   core                      streamToolCalls, the subpath not in use, the SDK registered
 *   traced                    telemetry(): recording, sampled spans and its metrics
 *   SDK floor                 the same SDK driven by hand from the core's events: one span with the
 *                             same attributes and one duration histogram record per call, the least
 *                             any instrumentation of a tool call pays the SDK
 *
 * Imports the built package (dist/).
 */
import { execFileSync } from "node:child_process";
import os from "node:os";
import { fileURLToPath } from "node:url";

const quick = process.argv.includes("--quick");
const TARGET_US = 1;

if (process.argv[2] === "--child") {
  await child(process.argv[3]);
} else {
  const file = fileURLToPath(import.meta.url);
  console.log(
    `toolrx/otel bench (${quick ? "quick" : "full"}) on ${os.cpus()[0]?.model ?? "cpu"} × ${os.cpus().length}, Node ${process.versions.node}, ${process.platform} ${process.arch}`,
  );
  const results = {};
  for (const phase of ["no-sdk", "sdk"]) {
    const out = execFileSync(process.execPath, [file, "--child", phase, ...(quick ? ["--quick"] : [])], { encoding: "utf8" });
    const { title, rows } = JSON.parse(out);
    console.log(`\n${title}\nsystem                 CPU µs/call   vs core, same round (median Δ)`);
    for (const row of rows) {
      results[`${phase}/${row.name}`] = row;
      const delta = row.name === "core" ? "" : `${row.delta >= 0 ? "+" : ""}${row.delta.toFixed(3)} µs/call`;
      console.log(`${row.name.padEnd(22)} ${row.perCall.toFixed(3).padStart(10)}   ${delta}`);
    }
  }
  const own = results["no-sdk/traced, no SDK"].delta;
  const sdk = results["sdk/traced"].delta;
  const floor = results["sdk/SDK floor"].delta;
  console.log(`\ntarget: toolrx/otel's own cost below ${TARGET_US} µs per call (no SDK): ${own < TARGET_US ? "met" : "missed"} (${own.toFixed(3)} µs)`);
  console.log(
    `with a recording SDK: ${sdk.toFixed(3)} µs per call, against ${floor.toFixed(3)} µs for the SDK floor (a span and a histogram record by hand): ${(sdk - floor).toFixed(3)} µs above it`,
  );
}

async function child(phase) {
  const { context, trace } = await import("@opentelemetry/api");
  const { z } = await import("zod");
  const { tap } = await import("rxjs");
  const { defineTool, ok, streamToolCalls } = await import("../dist/index.js");
  const BATCH = 1_000;
  const BATCHES_PER_SAMPLE = quick ? 5 : 20;
  const ROUNDS = quick ? 5 : 41;
  const WARMUP_ROUNDS = quick ? 2 : 10;

  const echo = defineTool({ name: "echo", description: "Echo a number", schema: z.object({ n: z.number() }), handler: ({ n }) => ok(n) });
  const calls = Array.from({ length: BATCH }, (_, i) => ({ id: `call_${i}`, name: "echo", arguments: { n: i } }));
  const options = { maxConcurrency: 16 };

  let systems;
  let title;
  let done = async () => {};
  if (phase === "no-sdk") {
    title = "Without an SDK";
    const core = { name: "core", stream: streamToolCalls };
    const imported = { name: "core, otel imported", stream: streamToolCalls };
    const { telemetry } = await import("../dist/otel/index.js");
    systems = [core, imported, { name: "traced, no SDK", stream: telemetry().streamToolCalls }];
  } else {
    title = "With the SDK (no-op exporters)";
    const { AsyncLocalStorageContextManager } = await import("@opentelemetry/context-async-hooks");
    const { MeterProvider, PeriodicExportingMetricReader } = await import("@opentelemetry/sdk-metrics");
    const { BasicTracerProvider, BatchSpanProcessor } = await import("@opentelemetry/sdk-trace-base");
    const { telemetry } = await import("../dist/otel/index.js");
    const noopExporter = { export: (_items, resultCallback) => resultCallback({ code: 0 }), shutdown: async () => {}, forceFlush: async () => {} };
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(noopExporter, { maxQueueSize: 65_536 })] });
    const meterProvider = new MeterProvider({
      readers: [new PeriodicExportingMetricReader({ exporter: noopExporter, exportIntervalMillis: 3_600_000 })],
    });
    trace.setGlobalTracerProvider(tracerProvider);
    const floorTracer = tracerProvider.getTracer("floor");
    const floorHistogram = meterProvider.getMeter("floor").createHistogram("floor.duration", { unit: "s" });
    const sdkFloor = (calls, tools, opts) => {
      const open = new Map();
      return streamToolCalls(calls, tools, opts).pipe(
        tap((e) => {
          if (e.type === "tool_execution_started") {
            const attributes = {
              "gen_ai.operation.name": "execute_tool",
              "gen_ai.tool.name": e.toolName,
              "gen_ai.tool.call.id": e.toolCallId,
              "gen_ai.tool.type": "function",
              "toolrx.call.index": e.index,
              "toolrx.call.queue_wait_ms": 0,
            };
            open.set(e.index, [floorTracer.startSpan(`execute_tool ${e.toolName}`, { attributes }), performance.now()]);
          } else if (e.type !== "tool_execution_completed") {
            const [span, start] = open.get(e.index);
            open.delete(e.index);
            span.end();
            const attributes = { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": e.toolName, "toolrx.call.outcome": "ok" };
            floorHistogram.record((performance.now() - start) / 1000, attributes);
          }
        }),
      );
    };
    systems = [
      { name: "core", stream: streamToolCalls },
      { name: "traced", stream: telemetry({ meterProvider }).streamToolCalls },
      { name: "SDK floor", stream: sdkFloor },
    ];
    done = () => Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
  }

  /** CPU microseconds per call for one sample. */
  const sample = (stream) => {
    let events = 0;
    const count = () => events++;
    const start = process.cpuUsage();
    for (let b = 0; b < BATCHES_PER_SAMPLE; b++) stream(calls, [echo], options).subscribe(count);
    const used = process.cpuUsage(start);
    const expected = BATCH * BATCHES_PER_SAMPLE * 3;
    if (events !== expected) throw new Error(`expected ${expected} events, got ${events}`);
    return (used.user + used.system) / (BATCH * BATCHES_PER_SAMPLE);
  };

  const perCall = new Map(systems.map((s) => [s.name, []]));
  const delta = new Map(systems.map((s) => [s.name, []]));
  for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
    const measured = {};
    for (let i = 0; i < systems.length; i++) {
      const system = systems[(i + round) % systems.length];
      measured[system.name] = sample(system.stream);
    }
    if (round < WARMUP_ROUNDS) continue;
    for (const system of systems) {
      perCall.get(system.name).push(measured[system.name]);
      delta.get(system.name).push(measured[system.name] - measured.core);
    }
  }
  await done();
  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    const m = s.length >> 1;
    return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
  };
  const rows = systems.map((s) => ({ name: s.name, perCall: median(perCall.get(s.name)), delta: median(delta.get(s.name)) }));
  process.stdout.write(JSON.stringify({ title: `${title}: ${ROUNDS} paired rounds of ${BATCHES_PER_SAMPLE} × ${BATCH} sync calls`, rows }));
}
