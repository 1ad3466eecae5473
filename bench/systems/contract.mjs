/**
 * The contract's limit: hand-written code, no RxJS, doing exactly the irreducible work the
 * contract asks of a runner, and nothing more. Per batch: one `Set` refusing duplicate ids
 * before anything runs. Per call: the `started` event, zod validation, the handler, its
 * `{ type }` result dispatched (ok, error, ask_user, halt), the `completed` event, the tail event
 * with `JSON.stringify`'d content; with a deadline on, one clock reading after each synchronous
 * handler (that reading is the next call's start, so a handler that blocks past its deadline
 * answers `timeout`) and one timer per asynchronous call; for `runToolCalls`, the messages in
 * input order. What toolrx costs above this is its own overhead, not the contract's price
 * (the older `limit-*` rows skip the ids, the dispatch and the clock).
 */
import { z } from "../lib/zod.mjs";

const schema = z.object({ i: z.number() });
const now = Date.now; // the clock RxJS's asyncScheduler reads, as toolrx's default deadline does

function timeoutResult() {
  return { type: "error", reason: "timeout" };
}

function pool({ handler, concurrency, deadlineMs = 30_000 }, calls, emit, done, fail) {
  if (Array.isArray(calls)) {
    const ids = new Set();
    for (const call of calls) {
      if (ids.has(call.id)) return fail(new TypeError(`duplicate tool call id ${call.id}`));
      ids.add(call.id);
    }
  }
  const input = calls[Symbol.iterator]();
  const deadlineOn = deadlineMs !== Infinity;
  let index = 0;
  let running = 0;
  let exhausted = false;
  let draining = false;
  let clock = deadlineOn ? now() : 0;

  const finish = (i, call, result) => {
    emit({ type: "tool_execution_completed", index: i, toolCallId: call.id, toolName: call.name, result });
    switch (result.type) {
      case "ok":
        emit({ type: "tool_result_encoded", index: i, toolCallId: call.id, toolName: call.name, content: JSON.stringify(result.value), isError: false });
        break;
      case "error":
        emit({
          type: "tool_result_encoded",
          index: i,
          toolCallId: call.id,
          toolName: call.name,
          content: JSON.stringify({ error: String(result.reason) }),
          isError: true,
        });
        break;
      case "ask_user":
        emit({ type: "ask_user_requested", index: i, toolCallId: call.id, toolName: call.name, question: result.question, opts: result.opts ?? {} });
        break;
      case "halt":
        emit({
          type: "tool_halt",
          index: i,
          toolCallId: call.id,
          toolName: call.name,
          reason: result.reason,
          result: result.result,
          content: JSON.stringify(result.result),
          isError: false,
        });
        break;
      default:
        emit({ type: "tool_result_encoded", index: i, toolCallId: call.id, toolName: call.name, content: '{"error":"invalid_return"}', isError: true });
    }
  };

  const start = (i, call) => {
    emit({ type: "tool_execution_started", index: i, toolCallId: call.id, toolName: call.name, arguments: call.arguments });
    const parsed = schema.safeParse(call.arguments);
    if (!parsed.success) return finish(i, call, { type: "error", reason: parsed.error.message });
    const started = clock;
    const value = handler(parsed.data);
    if (typeof value?.then !== "function") {
      if (deadlineOn) {
        clock = now();
        if (clock - started >= deadlineMs) return finish(i, call, timeoutResult());
      }
      return finish(i, call, value);
    }
    running++;
    let settled = false;
    const settle = (result) => {
      if (settled) return;
      settled = true;
      if (timer !== undefined) clearTimeout(timer);
      running--;
      finish(i, call, result);
      drain();
    };
    const timer = deadlineOn ? setTimeout(() => settle(timeoutResult()), deadlineMs) : undefined;
    value.then(settle, (e) => settle({ type: "error", reason: e }));
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

/** The shared handler's value, shaped as a contract handler returns it. */
const ok = (value) => ({ type: "ok", value });

/** @type {import("../lib/system.mjs").System} */
export const stream = {
  name: "contract-stream",
  kind: "stream",
  limitsConcurrency: true,
  perToolDeadline: true,
  streams: true,
  note: "hand-written: exactly the contract's work, streaming",
  deadlineNote: "one bare setTimeout per async call, one clock read per sync call",
  async prepare(setup) {
    const { onSettled } = setup;
    const run = { ...setup, handler: (args) => setup.handler(args, undefined, ok) };
    return {
      run: (calls) =>
        new Promise((resolve, reject) => {
          let results = 0;
          const emit = (event) => {
            if (event.type === "tool_execution_completed") {
              results++;
              onSettled?.(event.index);
            }
          };
          pool(run, calls, emit, () => resolve(results), reject);
        }),
    };
  },
};

/** @type {import("../lib/system.mjs").System} */
export const batch = {
  name: "contract-batch",
  kind: "batch",
  limitsConcurrency: true,
  perToolDeadline: true,
  reportsEachCall: false,
  streams: false,
  note: "hand-written: exactly the contract's work, with ordered messages",
  async prepare(setup) {
    const { keep } = setup;
    const run = { ...setup, handler: (args) => setup.handler(args, undefined, ok) };
    return {
      run: (calls) =>
        new Promise((resolve, reject) => {
          const messages = [];
          const emit = (event) => {
            if (event.type === "tool_result_encoded" || event.type === "tool_halt") {
              messages[event.index] = { role: "tool", toolCallId: event.toolCallId, name: event.toolName, content: event.content, isError: event.isError };
            } else if (event.type === "ask_user_requested") {
              messages[event.index] = { role: "tool", toolCallId: event.toolCallId, name: event.toolName, content: "<awaiting user response>", isError: false };
            }
          };
          pool(
            run,
            calls,
            emit,
            () => {
              keep?.(messages);
              resolve(messages.length);
            },
            reject,
          );
        }),
    };
  },
};
