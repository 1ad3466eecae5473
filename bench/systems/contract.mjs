/**
 * The contract's limit: hand-written code doing exactly the irreducible work the contract
 * (/work/shared/CONTRACT.md) asks of any runner, the cheapest correct way, and nothing more.
 * Per batch (§6, "Order of checks... before anything runs"): every call's name looked up in the
 * tools and one `Set` refusing duplicate ids. Per call: the `started` event, zod validation (§7),
 * the tool's handler called with a `ctx` (§4: `context`, `sessionId`, `requestId`, `toolCall`,
 * `engine`, `signal`, `progress`; the run's fields read through prototype getters, the
 * `AbortController` made only when a handler reads `signal`), a throw caught (§4:
 * `handler_raised`), its `{ type }` result dispatched (§2: ok, error, ask_user, halt, anything else
 * invalid), the `completed` event, the tail event with the content encoded as `jsonEncoder` does
 * (§5: a string raw, else `JSON.stringify`, a value JSON cannot represent `encoding_failed`); with a
 * deadline on, one clock reading after each synchronous handler (that reading is the next call's
 * start, so a handler that blocks past its deadline answers `timeout`) and one timer per
 * asynchronous call, which aborts its `ctx.signal` (§6, "Deadlines and cancellation"). The stream
 * is an RxJS `Observable` (§6: `streamToolCalls` returns `Observable<ToolEvent>`, so its events go
 * through a `Subscriber`), whose unsubscription clears the running calls' timers and aborts their
 * signals (§6: "leaves no timer or listener behind"); `runToolCalls` is a promise of the messages
 * in input order with the lowest-index halt (§6), with no Observable.
 *
 * Not here, because no clause of the contract asks it of a runner: checking each call's shape at
 * run time (§1 gives `ToolCall` as a type; toolrx's `TypeError` for a malformed call is its own
 * fail-closed rule), `onCallReport`, retries, per-tool control, `cancel` by id, late settlement.
 * What toolrx costs above this is its own overhead, not the contract's price (the older `limit-*`
 * rows skip the tool lookup, the ids, the ctx, the dispatch, the Observable and the clock).
 */
import { Observable } from "rxjs";
import { z } from "../lib/zod.mjs";

const schema = z.object({ i: z.number() });
const now = Date.now; // the clock RxJS's asyncScheduler reads, as toolrx's default deadline does

/** §3's `ToolError`, as a hand-written runner would make its own `timeout` and `handler_raised`. */
class ToolError extends Error {
  constructor(reason, call, cause) {
    super(`tool error (${call.name}): ${reason}`);
    this.reason = reason;
    this.toolName = call.name;
    this.toolCallId = call.id;
    this.cause = cause;
  }
}

/** §4's `ctx`: the run's fields on the prototype, the signal made when first read. */
class Ctx {
  constructor(run, toolCall) {
    this.run = run;
    this.toolCall = toolCall;
    this.controller = undefined;
  }
  get context() {
    return this.run.context;
  }
  get sessionId() {
    return this.run.sessionId;
  }
  get requestId() {
    return this.run.requestId;
  }
  get engine() {
    return this.run.engine;
  }
  get signal() {
    this.controller ??= new AbortController();
    return this.controller.signal;
  }
  progress() {}
}

/** First tool with that name (§6). */
function toolNamed(tools, name) {
  for (const tool of tools) if (tool.name === name) return tool;
  return undefined;
}

/** §5's `jsonEncoder.encode`: throws on what JSON cannot represent. */
function encode(value) {
  if (typeof value === "string") return value;
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError(`cannot encode ${typeof value}`);
  return text;
}

/** §5's `encodeError`, shortened: only the error paths read it. */
function encodeError(reason) {
  const text = typeof reason === "string" ? reason : reason instanceof Error ? `${reason.reason ?? ""} ${reason.message}` : JSON.stringify(reason);
  return JSON.stringify({ error: text });
}

function pool({ tools, concurrency, deadlineMs = 30_000, context = {} }, calls, emit, done, fail) {
  if (Array.isArray(calls)) {
    const ids = new Set();
    for (const call of calls) {
      if (toolNamed(tools, call.name) === undefined) return fail(new Error(`tool ${call.name} not in tools`));
      if (ids.has(call.id)) return fail(new TypeError(`duplicate tool call id ${call.id}`));
      ids.add(call.id);
    }
  }
  const run = { context, sessionId: undefined, requestId: undefined, engine: undefined };
  const input = calls[Symbol.iterator]();
  const deadlineOn = deadlineMs !== Infinity;
  /** The asynchronous calls under way, for the stream's teardown. */
  const running = new Set();
  let index = 0;
  let exhausted = false;
  let draining = false;
  let stopped = false;
  let clock = deadlineOn ? now() : 0;

  const finish = (i, call, result) => {
    emit({ type: "tool_execution_completed", index: i, toolCallId: call.id, toolName: call.name, result });
    switch (result?.type) {
      case "ok": {
        let content;
        try {
          content = encode(result.value);
        } catch (thrown) {
          return failed(i, call, new ToolError("encoding_failed", call, thrown));
        }
        emit({ type: "tool_result_encoded", index: i, toolCallId: call.id, toolName: call.name, content, isError: false });
        break;
      }
      case "error":
        return failed(i, call, result.reason);
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
          content: encode(result.result),
          isError: false,
        });
        break;
      default:
        failed(i, call, new ToolError("invalid_return", call, result));
    }
  };
  const failed = (i, call, reason) =>
    emit({ type: "tool_result_encoded", index: i, toolCallId: call.id, toolName: call.name, content: encodeError(reason), isError: true });

  const start = (i, call) => {
    emit({ type: "tool_execution_started", index: i, toolCallId: call.id, toolName: call.name, arguments: call.arguments });
    const tool = toolNamed(tools, call.name); // a streamed call's unknown name fails it alone
    if (tool === undefined) return finish(i, call, { type: "error", reason: new ToolError("not_found", call) });
    const parsed = tool.schema.safeParse(call.arguments);
    if (!parsed.success) return finish(i, call, { type: "error", reason: parsed.error });
    const ctx = new Ctx(run, call);
    const started = clock;
    let value;
    try {
      value = tool.handler(parsed.data, ctx);
    } catch (thrown) {
      value = { type: "error", reason: new ToolError("handler_raised", call, thrown) };
    }
    if (typeof value?.then !== "function") {
      if (deadlineOn) {
        clock = now();
        if (clock - started >= deadlineMs) return finish(i, call, { type: "error", reason: new ToolError("timeout", call) });
      }
      return finish(i, call, value);
    }
    const entry = { ctx, timer: undefined };
    running.add(entry);
    const settle = (result) => {
      if (!running.delete(entry)) return;
      if (entry.timer !== undefined) clearTimeout(entry.timer);
      finish(i, call, result);
      drain();
    };
    if (deadlineOn) {
      entry.timer = setTimeout(() => {
        const reason = new ToolError("timeout", call);
        ctx.controller?.abort(reason);
        settle({ type: "error", reason });
      }, deadlineMs);
    }
    value.then(settle, (thrown) => settle({ type: "error", reason: new ToolError("handler_raised", call, thrown) }));
  };

  const drain = () => {
    // A call settling inside start() must not start a second, nested drain.
    if (draining || stopped) return;
    draining = true;
    while (!exhausted && running.size < concurrency) {
      const next = input.next();
      if (next.done) exhausted = true;
      else start(index++, next.value);
    }
    draining = false;
    if (exhausted && running.size === 0) done();
  };
  drain();
  /** The teardown: nothing new starts, every running call's timer cleared and its signal aborted. */
  return () => {
    stopped = true;
    for (const { ctx, timer } of running) {
      clearTimeout(timer);
      ctx.controller?.abort(new Error("unsubscribed"));
    }
    running.clear();
  };
}

/** The shared handler's value, shaped as a contract handler returns it. */
const ok = (value) => ({ type: "ok", value });

/** The one tool, `work`, as toolrx's rows define it: the shared handler, given its `ctx`. */
const toolsOf = (setup) => [{ name: "work", schema, handler: (args) => setup.handler(args, undefined, ok) }];

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
    const run = { ...setup, tools: toolsOf(setup) };
    // As a user of `streamToolCalls` consumes it: subscribed with an observer.
    const events = (calls) =>
      new Observable((subscriber) =>
        pool(
          run,
          calls,
          (event) => subscriber.next(event),
          () => subscriber.complete(),
          (e) => subscriber.error(e),
        ),
      );
    return {
      run: (calls) =>
        new Promise((resolve, reject) => {
          let results = 0;
          events(calls).subscribe({
            next(event) {
              if (event.type === "tool_execution_completed") {
                results++;
                onSettled?.(event.index);
              }
            },
            error: reject,
            complete: () => resolve(results),
          });
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
    const run = { ...setup, tools: toolsOf(setup) };
    return {
      run: (calls) =>
        new Promise((resolve, reject) => {
          const messages = [];
          let halt;
          const emit = (event) => {
            if (event.type === "tool_result_encoded") {
              messages[event.index] = { role: "tool", toolCallId: event.toolCallId, name: event.toolName, content: event.content, isError: event.isError };
            } else if (event.type === "tool_halt") {
              if (halt === undefined || event.index < halt.index)
                halt = { index: event.index, haltedReason: event.reason, haltToolCallId: event.toolCallId, haltResult: event.result };
              messages[event.index] = { role: "tool", toolCallId: event.toolCallId, name: event.toolName, content: event.content, isError: event.isError };
            } else if (event.type === "ask_user_requested") {
              if (halt === undefined || event.index < halt.index)
                halt = {
                  index: event.index,
                  haltedReason: "ask_user",
                  pendingQuestion: event.question,
                  pendingToolCallId: event.toolCallId,
                  askUserOpts: event.opts,
                };
              messages[event.index] = { role: "tool", toolCallId: event.toolCallId, name: event.toolName, content: "<awaiting user response>", isError: false };
            }
          };
          pool(
            run,
            calls,
            emit,
            () => {
              const result = halt === undefined ? { messages } : { messages, halt };
              keep?.(result.messages);
              resolve(result.messages.length);
            },
            reject,
          );
        }),
    };
  },
};
