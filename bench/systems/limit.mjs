/**
 * The physical limit: a hand-written pool doing exactly the work a tool runner must do, and no
 * more. Per call: validate the arguments with the tool's zod schema, run the handler, build the
 * three events (started, completed, the encoded result) and hand each to the consumer,
 * `JSON.stringify` the value into the message content; when the handler goes asynchronous, one
 * `setTimeout` deadline, cleared when it settles. The batch variant also builds the ordered
 * messages `runToolCalls` returns. No Observables, no options, no error policy, no abort
 * signals: a runner cannot do this work for less, so `× limit` says how far from it toolrx is.
 */
import { z } from "../lib/zod.mjs";

const schema = z.object({ i: z.number() });
const TIMED_OUT = { type: "error", reason: "timeout" };

/**
 * Runs `calls` at most `concurrency` at once, draining synchronous completions in a loop (no
 * recursion, so a million queued calls cost no stack), and calls `emit` with each event.
 */
function pool({ handler, concurrency, deadlineMs = 30_000 }, calls, emit, done) {
  const input = calls[Symbol.iterator]();
  let index = 0;
  let running = 0;
  let exhausted = false;
  let draining = false;

  const finish = (i, call, result) => {
    emit({ type: "tool_execution_completed", index: i, toolCallId: call.id, toolName: call.name, result });
    const isError = result.type !== "ok";
    const content = isError ? JSON.stringify({ error: result.reason }) : JSON.stringify(result.value);
    emit({ type: "tool_result_encoded", index: i, toolCallId: call.id, toolName: call.name, content, isError });
  };

  const start = (i, call) => {
    emit({ type: "tool_execution_started", index: i, toolCallId: call.id, toolName: call.name, arguments: call.arguments });
    const parsed = schema.safeParse(call.arguments);
    if (!parsed.success) return finish(i, call, { type: "error", reason: parsed.error.message });
    const value = handler(parsed.data);
    if (typeof value?.then !== "function") return finish(i, call, { type: "ok", value });
    running++;
    let settled = false;
    const settle = (result) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      running--;
      finish(i, call, result);
      drain();
    };
    const timer = setTimeout(settle, deadlineMs, TIMED_OUT);
    value.then(
      (v) => settle({ type: "ok", value: v }),
      (e) => settle({ type: "error", reason: String(e) }),
    );
  };

  const drain = () => {
    // A call settling inside start() must not start a second, nested drain.
    if (draining) return;
    draining = true;
    while (!exhausted && running < concurrency) {
      const next = input.next();
      if (next.done) exhausted = true;
      else start(index++, next.value);
    }
    draining = false;
    if (exhausted && running === 0) done();
  };
  drain();
}

/** @type {import("../lib/system.mjs").System} */
export const stream = {
  name: "limit-stream",
  kind: "stream",
  limitsConcurrency: true,
  perToolDeadline: true,
  streams: true,
  note: "hand-written: the least work a streaming tool runner can do",
  deadlineNote: "one bare setTimeout per call",
  async prepare(setup) {
    const { onSettled } = setup;
    return {
      run: (calls) =>
        new Promise((resolve) => {
          let results = 0;
          const emit = (event) => {
            if (event.type === "tool_execution_completed") {
              results++;
              onSettled?.(event.index);
            }
          };
          pool(setup, calls, emit, () => resolve(results));
        }),
    };
  },
};

/** @type {import("../lib/system.mjs").System} */
export const batch = {
  name: "limit-batch",
  kind: "batch",
  limitsConcurrency: true,
  perToolDeadline: true,
  reportsEachCall: false,
  streams: false,
  note: "hand-written: the above, plus the ordered messages",
  async prepare(setup) {
    const { keep } = setup;
    return {
      run: (calls) =>
        new Promise((resolve) => {
          const messages = [];
          const emit = (event) => {
            if (event.type === "tool_result_encoded") {
              messages[event.index] = { role: "tool", toolCallId: event.toolCallId, name: event.toolName, content: event.content, isError: event.isError };
            }
          };
          pool(setup, calls, emit, () => {
            keep?.(messages);
            resolve(messages.length);
          });
        }),
    };
  },
};
