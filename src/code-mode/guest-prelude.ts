/**
 * The first code a script's QuickJS context runs, before any of the script: a function
 * expression the sandbox thread calls with the host's two functions, the tool names, the seed
 * and the frozen time. Those arrive as arguments, never as globals, and live on only in this
 * closure, so no name the script can reach leads to them. Everything the channel uses
 * (`JSON`, `Reflect.apply`, `Promise.prototype.then`, the error classes) is taken here, before
 * the script can replace it; a script that overwrites `JSON` or `Promise` changes its own view
 * only.
 *
 * It returns `settle(source)`: it compiles and runs the script's async function and tells the host its end,
 * through `end(ok, text, kind)`. `kind` is how the script ended as this closure saw it
 * (`value`, `thrown`, `unserializable`, and `engine_memory` / `engine_stack` for the engine's own
 * out-of-memory and stack-overflow errors: an `InternalError` by the realm's own prototype,
 * taken before the script ran, never an `Error` or a `ToolCallError` whatever its message says).
 */
export const GUEST_PRELUDE = `(function install(hostCall, hostEnd, namesText, seed, now) {
  "use strict";
  const G = globalThis;
  const { apply, construct, defineProperty, getPrototypeOf } = Reflect;
  const getOwn = Object.getOwnPropertyDescriptor, freeze = Object.freeze, create = Object.create;
  const stringify = JSON.stringify, parse = JSON.parse, evaluate = G.eval;
  const then = Promise.prototype.then;
  const NativeDate = Date, dateString = Date.prototype.toString;
  const internalProto = InternalError.prototype;
  const hidden = (target, key, value) => defineProperty(target, key, { value, writable: true, configurable: true, enumerable: false });
  const json = (value) => apply(stringify, undefined, [value]);

  class ToolCallError extends Error {
    constructor(tool, reason, message) { super(message); this.name = "ToolCallError"; this.tool = tool; this.reason = reason; }
  }

  // Math.random: a PRNG (mulberry32) seeded by the host, its state in this closure.
  let state = seed >>> 0;
  hidden(Math, "random", function random() {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  });

  // Date: the real constructor stays only in this closure; every path to it (the global,
  // Date.prototype.constructor, a date's constructor) reaches the frozen one instead.
  const FrozenDate = new Proxy(NativeDate, {
    construct(target, args, newTarget) { return construct(target, args.length === 0 ? [now] : args, newTarget === FrozenDate ? target : newTarget); },
    apply() { return apply(dateString, construct(NativeDate, [now]), []); },
  });
  hidden(NativeDate, "now", { now() { return now; } }.now);
  hidden(NativeDate.prototype, "constructor", FrozenDate);
  hidden(G, "Date", FrozenDate);
  // What changes with the host's garbage collector or clock, and so breaks an exact replay.
  for (const name of ["WeakRef", "FinalizationRegistry", "performance"]) delete G[name];

  const tools = create(null);
  for (const name of apply(parse, undefined, [namesText])) {
    tools[name] = function (args) {
      const text = json(args === undefined ? {} : args);
      return apply(then, hostCall(name, typeof text === "string" ? text : "null"), [
        (answer) => apply(parse, undefined, [answer]),
        (failure) => { const f = apply(parse, undefined, [failure]); throw new ToolCallError(name, f.reason, f.message); },
      ]);
    };
  }
  hidden(G, "tools", freeze(tools));
  hidden(G, "ToolCallError", ToolCallError);

  const own = (value, key) => { try { const d = getOwn(value, key); return d !== undefined && "value" in d ? d.value : undefined; } catch { return undefined; } };
  const describe = (e) => {
    try {
      if (e === null || (typeof e !== "object" && typeof e !== "function")) return String(e);
      const name = own(e, "name") ?? own(getPrototypeOf(e), "name");
      const message = own(e, "message");
      return (typeof name === "string" ? name : "Error") + ": " + (typeof message === "string" ? message : "");
    } catch { return "a value that cannot be shown"; }
  };
  const kindOf = (e) => {
    try {
      if (e === null || typeof e !== "object" || getPrototypeOf(e) !== internalProto) return "thrown";
      const message = own(e, "message");
      return message === "out of memory" ? "engine_memory" : message === "stack overflow" ? "engine_stack" : "thrown";
    } catch { return "thrown"; }
  };
  const onValue = (v) => {
    let text;
    try { text = json(v === undefined ? null : v); } catch (e) { hostEnd(false, describe(e), "unserializable"); return; }
    if (typeof text === "string") hostEnd(true, text, "value");
    else hostEnd(false, "the script's value is not JSON", "unserializable");
  };
  const onError = (e) => hostEnd(false, describe(e), kindOf(e));
  // The script's text is compiled here, as global code, so a syntax error is a throw like any other.
  return function settle(source) {
    try { apply(then, apply(apply(evaluate, undefined, [source]), undefined, []), [onValue, onError]); } catch (e) { onError(e); }
  };
})`;
