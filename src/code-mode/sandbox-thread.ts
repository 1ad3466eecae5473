/**
 * The sandbox thread's whole program. It is sent to the thread as source text
 * (`new Worker(code, { eval: true })`), so it must stay self-contained: it references nothing
 * outside its own body but `load` (the thread's own `require`, passed by the source text, so no
 * bundler rewrites it) and what it is given as `workerData` (the QuickJS modules' absolute paths). Shipping it as text keeps it working from TypeScript source, from the ESM
 * build and from the CommonJS one alike, without a second built file to locate.
 *
 * One script at a time: a fresh QuickJS runtime and context per script (nothing survives from
 * one script to the next), with a memory limit, a stack limit and an interrupt handler that
 * counts only the time the guest itself runs (not the time it waits for its tools). The guest
 * sees `tools`, `ToolCallError` and plain ECMAScript; `Date.now`/`new Date()` are frozen at a
 * time the host gives and `Math.random` is a PRNG seeded by the host, so a replay is exact.
 */
export function sandboxThread(load: (id: string) => unknown): void {
  // biome-ignore lint/suspicious/noExplicitAny: untyped on purpose, this body runs as plain text in its own thread.
  type Any = any;
  const { parentPort, workerData } = load("node:worker_threads") as Any;
  const port = parentPort as Any;
  const setup = workerData as { core: string; variant: string };
  const core = load(setup.core) as Any;
  const variantModule = load(setup.variant) as Any;
  let running: Any;

  const PRELUDE = `
    "use strict";
    const __hostCall = globalThis.__hostCall, __hostEnd = globalThis.__hostEnd, __names = JSON.parse(globalThis.__names);
    const __seed = globalThis.__seed, __now = globalThis.__now;
    delete globalThis.__hostCall; delete globalThis.__hostEnd; delete globalThis.__names; delete globalThis.__seed; delete globalThis.__now;
    class ToolCallError extends Error {
      constructor(tool, reason, message) { super(message); this.name = "ToolCallError"; this.tool = tool; this.reason = reason; }
    }
    let __state = __seed >>> 0;
    Math.random = function random() {
      __state = (__state + 0x6d2b79f5) >>> 0;
      let t = __state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const __Date = Date;
    globalThis.Date = new Proxy(__Date, {
      construct(target, args) { return args.length === 0 ? new target(__now) : new target(...args); },
      apply() { return new __Date(__now).toString(); },
    });
    __Date.now = function now() { return __now; };
    const tools = Object.create(null);
    for (const name of __names) {
      tools[name] = function (args) {
        const text = JSON.stringify(args === undefined ? {} : args);
        return __hostCall(name, text === undefined ? "null" : text).then(
          (answer) => JSON.parse(answer),
          (failure) => { const f = JSON.parse(failure); throw new ToolCallError(name, f.reason, f.message); },
        );
      };
    }
    Object.freeze(tools);
    globalThis.tools = tools;
    globalThis.ToolCallError = ToolCallError;
  `;

  function start(message: Any): void {
    const { script, names, limits, now, seed } = message;
    const runtime = module.newRuntime();
    runtime.setMemoryLimit(limits.memoryBytes);
    runtime.setMaxStackSize(limits.stackBytes);
    const state: Any = {
      runtime,
      ctx: undefined,
      used: 0,
      since: 0,
      pending: new Map(),
      calls: 0,
      ended: false,
      cpuMs: limits.cpuMs,
      memoryBytes: limits.memoryBytes,
    };
    running = state;
    runtime.setInterruptHandler(() => state.since !== 0 && state.used + (performance.now() - state.since) > state.cpuMs);
    const ctx = runtime.newContext();
    state.ctx = ctx;
    const hostCall = ctx.newFunction("__hostCall", (nameHandle: Any, argsHandle: Any) => {
      const name = ctx.getString(nameHandle);
      const args = ctx.getString(argsHandle);
      const deferred = ctx.newPromise();
      const seq = state.calls;
      state.calls += 1;
      state.pending.set(seq, deferred);
      port.postMessage({ type: "call", seq, name, args });
      return deferred.handle;
    });
    const hostEnd = ctx.newFunction("__hostEnd", (okHandle: Any, valueHandle: Any, kindHandle: Any) => {
      end(state, ctx.dump(okHandle) === true, ctx.getString(valueHandle), ctx.getString(kindHandle));
    });
    ctx.setProp(ctx.global, "__hostCall", hostCall);
    ctx.setProp(ctx.global, "__hostEnd", hostEnd);
    hostCall.dispose();
    hostEnd.dispose();
    for (const [key, value] of [
      ["__names", JSON.stringify(names)],
      ["__seed", seed],
      ["__now", now],
    ] as const) {
      const handle = typeof value === "string" ? ctx.newString(value) : ctx.newNumber(value);
      ctx.setProp(ctx.global, key, handle);
      handle.dispose();
    }
    const wrapped = `${PRELUDE}\n(async () => {\n${script}\n})().then(
      (v) => { let t; try { t = JSON.stringify(v === undefined ? null : v); } catch (e) { __hostEnd(false, String(e), "result_unserializable"); return; }
               if (t === undefined) __hostEnd(false, "the script's value is not JSON", "result_unserializable"); else __hostEnd(true, t, ""); },
      (e) => { let m; try { m = e instanceof Error ? e.name + ": " + e.message : String(e); } catch { m = "a value that cannot be shown"; } __hostEnd(false, m, "script_error"); });`;
    slice(state, () => {
      const result = ctx.evalCode(wrapped, "script.js");
      if (result.error) {
        const failure = ctx.dump(result.error);
        result.error.dispose();
        end(state, false, describe(failure), "script_error");
      } else result.value.dispose();
    });
  }

  /** Run guest code, counting its time against the CPU limit; an interrupt or out of memory ends the script. */
  function slice(state: Any, run: () => void): void {
    if (state.ended) return;
    state.since = performance.now();
    try {
      run();
      if (!state.ended) {
        const jobs = state.runtime.executePendingJobs();
        if (jobs.error) {
          const failure = state.ctx.dump(jobs.error);
          jobs.error.dispose();
          end(state, false, describe(failure), "script_error");
        }
      }
    } catch (thrown) {
      end(state, false, describe(thrown), "script_error");
    } finally {
      state.used += performance.now() - state.since;
      state.since = 0;
    }
    // Nothing left to run and no tool call to wait for, yet no end: the script awaits a promise
    // nothing can settle, or ran out of memory where even its end could not be told.
    if (!state.ended && state.pending.size === 0) {
      const full = outOfMemory(state);
      end(state, false, full ? "InternalError: out of memory" : "the script awaits a promise that nothing can settle", "script_error");
    }
    // Tells the host's watchdog the slice is over (a slice stuck in a builtin never says it).
    if (!state.ended) port.postMessage({ type: "idle" });
  }

  /** Whether the script's heap is full: a tiny allocation in it fails. */
  function outOfMemory(state: Any): boolean {
    try {
      const probe = state.ctx.evalCode("[0, 1, 2, 3].map(String).join()");
      const failed = probe.error !== undefined;
      (probe.error ?? probe.value).dispose();
      return failed;
    } catch {
      return true;
    }
  }

  function describe(failure: Any): string {
    if (failure !== null && typeof failure === "object") return `${failure.name ?? "Error"}: ${failure.message ?? ""}`;
    return String(failure);
  }

  /** The script's end, once: its result, or the documented code of why it stopped. */
  function end(state: Any, ok: boolean, text: string, kind: string): void {
    if (state.ended) return;
    state.ended = true;
    let code = kind;
    if (!ok && /out of memory/i.test(text)) code = "memory";
    else if (!ok && /stack overflow/i.test(text)) code = "stack_overflow";
    else if (!ok && (/interrupted/i.test(text) || (state.since !== 0 && state.used + (performance.now() - state.since) > state.cpuMs))) code = "cpu_time";
    port.postMessage(ok ? { type: "done", ok: true, value: text } : { type: "done", ok: false, code, message: text });
    // Disposed after this slice: the guest's stack is still on the interpreter here.
    setImmediate(() => dispose(state));
  }

  function dispose(state: Any): void {
    if (state.disposed) return;
    state.disposed = true;
    if (running === state) running = undefined;
    try {
      for (const deferred of state.pending.values()) deferred.dispose();
      state.ctx.dispose();
      state.runtime.dispose();
    } catch {
      // A runtime that ran out of memory may not free cleanly; the next script gets a new one.
    }
  }

  function answer(message: Any): void {
    const state = running;
    if (state === undefined || state.ended) return;
    const deferred = state.pending.get(message.seq);
    if (deferred === undefined) return;
    state.pending.delete(message.seq);
    slice(state, () => {
      const handle = state.ctx.newString(message.text);
      if (message.ok) deferred.resolve(handle);
      else deferred.reject(handle);
      handle.dispose();
      deferred.dispose();
    });
  }

  let module: Any;
  core.newQuickJSWASMModuleFromVariant(variantModule.default ?? variantModule).then((loaded: Any) => {
    module = loaded;
    port.on("message", (message: Any) => {
      if (message.type === "run") start(message);
      else if (message.type === "answer") answer(message);
      else if (message.type === "stop") {
        if (running !== undefined) {
          running.ended = true;
          dispose(running);
        }
        // Always told: the host takes every message before this one as the stopped script's.
        port.postMessage({ type: "stopped" });
      }
    });
    port.postMessage({ type: "ready" });
  });
}
