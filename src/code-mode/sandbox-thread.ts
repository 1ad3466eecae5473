import type { cpuBudget } from "./cpu-budget.js";
import type { threadCpuClock } from "./thread-cpu-clock.js";

/**
 * The sandbox thread's whole program. It is sent to the thread as source text (`new Worker(code,
 * { eval: true })`), so it must stay self-contained: it references nothing outside its own body
 * but `load` (the thread's own `require`, passed by the source text, so no bundler rewrites it),
 * the two functions of its CPU limit (sent as text beside it) and its `workerData` (the QuickJS
 * modules' paths and the guest prelude's text). As text it works from TypeScript source, from the
 * ESM build and from the CommonJS one alike, without a second built file to locate.
 *
 * One script at a time: a fresh QuickJS runtime and context per script (nothing survives from
 * one script to the next), with a memory limit, a stack limit and an interrupt handler that
 * counts only the time the guest itself runs, not its waits for its tools (CPU time where the
 * thread can read its CPU clock: {@link cpuBudget}). The guest reaches the host only through
 * the two functions the prelude keeps in its closure. Why a script stopped comes from this
 * side's own signals (the interrupt handler fired, a job ran past the budget, the heap is
 * full) or from the prelude's check of the engine's own error class, never from a message's
 * text. Once the script has ended, the interrupt handler stops any guest code still queued, and
 * calls made in the slice it ended in are never sent.
 */
export function sandboxThread(load: (id: string) => unknown, cpuClockOf: typeof threadCpuClock, budgetOf: typeof cpuBudget): void {
  // biome-ignore lint/suspicious/noExplicitAny: untyped on purpose, this body runs as plain text in its own thread.
  type Any = any;
  const { parentPort, workerData } = load("node:worker_threads") as Any;
  const port = parentPort as Any;
  const setup = workerData as { core: string; variant: string; prelude: string };
  const core = load(setup.core) as Any;
  const variantModule = load(setup.variant) as Any;
  /** How much of a guest's error text is told: enough to read, never a channel for bulk data. */
  const MESSAGE_CHARS = 4_096;
  const CODES: Record<string, string> = {
    thrown: "script_error",
    unserializable: "result_unserializable",
    engine_memory: "memory",
    engine_stack: "stack_overflow",
  };
  let running: Any;
  let module: Any;
  /** The WebAssembly module aborted (QuickJS asserts on some out-of-memory paths): this thread is not reused. */
  let broken = false;
  const cpuClock = cpuClockOf(load);

  function start(message: Any): void {
    const { script, names, limits, now, seed } = message;
    const runtime = module.newRuntime();
    runtime.setMemoryLimit(limits.memoryBytes);
    runtime.setMaxStackSize(limits.stackBytes);
    const state: Any = { runtime, ctx: undefined, limits, used: 0, since: 0, pending: new Map(), calls: 0, inFlight: 0, outbox: [] };
    Object.assign(state, { ended: false, interrupted: false, budget: budgetOf(limits.cpuMs, cpuClock, () => performance.now()) });
    running = state;
    runtime.setInterruptHandler(() => {
      if (state.ended) return true;
      if (overBudget(state)) state.interrupted = true;
      return state.interrupted;
    });
    const ctx = runtime.newContext();
    state.ctx = ctx;
    const hostCall = ctx.newFunction("call", (name: Any, args: Any) => call(state, name, args));
    const hostEnd = ctx.newFunction("end", (ok: Any, text: Any, kind: Any) => {
      const str = (h: Any, fallback: string): string => (ctx.typeof(h) === "string" ? ctx.getString(h) : fallback);
      const kindText = str(kind, "thrown");
      if (ctx.typeof(ok) === "boolean" && ctx.dump(ok) === true && kindText === "value") finish(state, true, str(text, "null"), "");
      else finish(state, false, str(text, "the script failed"), CODES[kindText] ?? "script_error");
    });
    slice(state, () => {
      const installer = ctx.evalCode(setup.prelude, "prelude.js");
      const args = [hostCall, hostEnd, ctx.newString(JSON.stringify(names)), ctx.newNumber(seed), ctx.newNumber(now)];
      const settle = installer.error ? installer : ctx.callFunction(installer.value, ctx.undefined, ...args);
      for (const handle of [...args, ...(installer.error ? [] : [installer.value])]) handle.dispose();
      if (settle.error) return failed(state, settle.error);
      const source = ctx.newString(`(async () => {\n${script}\n})`);
      const ran = ctx.callFunction(settle.value, ctx.undefined, source);
      source.dispose();
      settle.value.dispose();
      if (ran.error) failed(state, ran.error);
      else ran.value.dispose();
    });
  }

  function overBudget(state: Any): boolean {
    return state.since !== 0 && state.budget.spent(state.used + (performance.now() - state.since));
  }

  /** A nested call from the prelude: checked against the limits here, sent when the slice ends. */
  function call(state: Any, nameHandle: Any, argsHandle: Any): Any {
    const { ctx, limits } = state;
    if (state.ended) return undefined;
    if (ctx.typeof(nameHandle) !== "string" || ctx.typeof(argsHandle) !== "string")
      return end(state, false, "a nested call without a name or arguments", "script_error");
    const name = ctx.getString(nameHandle);
    const args = ctx.getString(argsHandle);
    const bytes = Buffer.byteLength(args);
    const seq = state.calls;
    if (seq >= limits.maxCalls) return end(state, false, `more than ${limits.maxCalls} nested calls`, "too_many_calls");
    if (bytes > limits.maxArgumentBytes)
      return end(state, false, `call ${seq + 1}'s arguments are ${bytes} bytes of JSON, over ${limits.maxArgumentBytes}`, "arguments_too_large");
    if (state.inFlight + bytes > limits.maxInFlightBytes)
      return end(state, false, `the calls waiting for answers hold over ${limits.maxInFlightBytes} bytes of arguments`, "arguments_too_large");
    const deferred = ctx.newPromise();
    state.calls += 1;
    state.inFlight += bytes;
    state.pending.set(seq, { deferred, bytes });
    state.outbox.push({ type: "call", seq, name, args });
    return deferred.handle;
  }

  /**
   * Run guest code, counting its time against the CPU limit, then its jobs until none is left,
   * the script has ended or the budget is spent. One job at a time: a job queued behind the one
   * that ends the script never runs, where a batch ran it (QuickJS asks the interrupt handler only
   * every so many branches, minutes apart in a loop of long native calls, which kept the thread
   * past the pool's stop grace; about 1 µs a job).
   */
  function slice(state: Any, run: () => void): void {
    if (state.ended) return;
    state.since = performance.now();
    try {
      run();
      while (!state.ended) {
        const jobs = state.runtime.executePendingJobs(1);
        if (jobs.error) {
          failed(state, jobs.error);
          break;
        }
        if (jobs.value === 0) break;
        if (overBudget(state)) state.interrupted = true;
        if (state.interrupted) break;
      }
    } catch (thrown) {
      // Not the guest's throw (those come back as handles): the WebAssembly module itself failed.
      broken = true;
      end(state, false, `the sandbox failed: ${String((thrown as Any)?.message ?? thrown)}`, outOfMemory(state) ? "memory" : "script_error");
    } finally {
      state.used += performance.now() - state.since;
      state.since = 0;
    }
    if (!state.ended && state.interrupted) end(state, false, "", "cpu_time");
    // Nothing left to run and no tool call to wait for, yet no end: the script awaits a promise
    // nothing can settle, or ran out of memory where even its end could not be told.
    if (!state.ended && state.pending.size === 0) {
      if (outOfMemory(state)) end(state, false, "the script's heap is full", "memory");
      else end(state, false, "the script awaits a promise that nothing can settle", "script_error");
    }
    const outbox = state.outbox;
    state.outbox = [];
    if (state.ended) return;
    for (const message of outbox) port.postMessage(message);
    // Tells the host's watchdog the slice is over (a slice stuck in a builtin never says it).
    port.postMessage({ type: "idle" });
  }

  /** A failure that came back as a handle: the interrupt, the full heap, or a throw the prelude could not catch. */
  function failed(state: Any, error: Any): void {
    let text = "the script failed";
    try {
      const dumped = state.ctx.dump(error);
      text = dumped !== null && typeof dumped === "object" ? `${dumped.name ?? "Error"}: ${dumped.message ?? ""}` : String(dumped);
    } catch {
      // A value that cannot be shown: the generic text stands.
    }
    error.dispose();
    const code = state.interrupted ? "cpu_time" : outOfMemory(state) ? "memory" : "script_error";
    end(state, false, text, code);
  }

  /** Whether the script's heap is full: a tiny allocation in it fails. */
  function outOfMemory(state: Any): boolean {
    if (broken) return true;
    try {
      const probe = state.ctx.evalCode("[0, 1, 2, 3].map(String).join()");
      const full = probe.error !== undefined;
      (probe.error ?? probe.value).dispose();
      return full;
    } catch {
      return true;
    }
  }

  /** The script's value as the prelude told it, past the result limit or not. */
  function finish(state: Any, ok: boolean, text: string, code: string): void {
    const bytes = Buffer.byteLength(text);
    if (!ok || state.interrupted) end(state, false, text, state.interrupted ? "cpu_time" : code);
    else if (bytes > state.limits.maxResultBytes)
      end(state, false, `the script's value is ${bytes} bytes of JSON, over ${state.limits.maxResultBytes}`, "result_too_large");
    else end(state, true, text, "");
  }

  /** The script's end, once. */
  function end(state: Any, ok: boolean, text: string, code: string): undefined {
    if (state.ended) return undefined;
    state.ended = true;
    // Every cpu_time is the budget's (the engine's own text says only "interrupted"): it says which clock ended the script.
    const told = code === "cpu_time" ? `the script ran past ${state.limits.cpuMs} ms of CPU time (${state.budget.clock})` : text;
    port.postMessage(ok ? { type: "done", ok: true, value: told } : { type: "done", ok: false, code, message: told.slice(0, MESSAGE_CHARS) });
    // Disposed after this slice: the guest's stack is still on the interpreter here.
    setImmediate(() => dispose(state));
    return undefined;
  }

  function dispose(state: Any): void {
    if (state.disposed) return;
    state.disposed = true;
    if (running === state) running = undefined;
    try {
      for (const { deferred } of state.pending.values()) deferred.dispose();
      state.pending.clear();
      state.ctx.dispose();
      state.runtime.dispose();
    } catch {
      broken = true;
    }
    // A module that aborted cannot be trusted with the next script: the pool starts a new thread.
    if (broken) process.exit(1);
  }

  function answer(message: Any): void {
    const state = running;
    if (state === undefined || state.ended) return;
    const entry = state.pending.get(message.seq);
    if (entry === undefined) return;
    state.pending.delete(message.seq);
    state.inFlight -= entry.bytes;
    slice(state, () => {
      const handle = state.ctx.newString(message.text);
      if (message.ok) entry.deferred.resolve(handle);
      else entry.deferred.reject(handle);
      handle.dispose();
      entry.deferred.dispose();
    });
  }

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
