/**
 * Property tests of the runner (`streamToolCalls`, `runToolCalls`): random batches of 1..40 calls
 * mixing every handler behaviour, random `onToolError` policies, `maxConcurrency` and
 * `toolTimeout`, checked against CONTRACT.md §2, §4 and §6.
 *
 * Timing is never asserted, only what follows from it deterministically:
 * - "async" handlers settle in microtasks, which always run before any timer, so they never time out;
 * - "slow" handlers start their sleep in a microtask after they are called, i.e. after the runner
 *   has armed the deadline (it does so synchronously when the executor hands back a promise), and
 *   sleep `toolTimeout + 3` ms: Node fires timers in order of due time, so the deadline always
 *   wins, however loaded the machine;
 * - "never" and "late" handlers settle only after their `ctx.signal` aborts.
 * So every call's outcome is a function of the generated batch, and two runs of one batch give the
 * same messages.
 */
import fc from "fast-check";
import { asyncScheduler, Subject, takeUntil, tap, type SchedulerAction, type SchedulerLike, type Subscription } from "rxjs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  askUser,
  AWAITING_USER_RESPONSE,
  defineTool,
  error,
  halt,
  InvalidArgumentsError,
  isToolError,
  jsonEncoder,
  ok,
  RESERVED_HALT_REASONS,
  runToolCalls,
  streamToolCalls,
  type HaltMetadata,
  type HandlerResult,
  type HandlerReturn,
  type OnToolError,
  type ReservedHaltReason,
  type RunResult,
  type ToolCall,
  type ToolErrorDecision,
  type ToolErrorReason,
  type ToolEvent,
  type ToolExecutionCompleted,
  type ToolTailEvent,
} from "../../src/index.js";
import type { RunOptions } from "../../src/run/options/run-options.js";
import type { HandlerContext } from "../../src/tool/handler-context.js";
import type { ToolMessage } from "../../src/tool/message.js";

// ---------------------------------------------------------------------------------------------
// What a batch is made of
// ---------------------------------------------------------------------------------------------

/** `"sync"`, or the number of microtask hops before an async handler settles. */
type Timing = "sync" | number;

type Behaviour =
  | { readonly kind: "ok"; readonly timing: Timing; readonly value: unknown }
  | { readonly kind: "error"; readonly timing: Timing; readonly reason: unknown }
  | { readonly kind: "throw"; readonly timing: Timing; readonly thrown: unknown }
  | { readonly kind: "invalid"; readonly timing: Timing; readonly value: unknown }
  | { readonly kind: "askUser"; readonly timing: Timing; readonly question: string; readonly opts: object | undefined }
  | { readonly kind: "halt"; readonly timing: Timing; readonly reason: string; readonly result: unknown }
  | { readonly kind: "reservedHalt"; readonly timing: Timing; readonly reason: ReservedHaltReason; readonly result: unknown }
  /** Arguments that fail the schema: the handler must never be called. */
  | { readonly kind: "badArgs" }
  /** Sleeps past the deadline, ignoring its signal, then answers `ok`: must be ignored. */
  | { readonly kind: "slow" }
  /** Never settles. */
  | { readonly kind: "never" }
  /** Settles (resolves or rejects) shortly after its signal aborts: must be ignored. */
  | { readonly kind: "late"; readonly settle: "resolve" | "reject" };

type Kind = Behaviour["kind"];
const KINDS: readonly Kind[] = ["ok", "error", "throw", "invalid", "askUser", "halt", "reservedHalt", "badArgs", "slow", "never", "late"];
const TIMED_OUT_KINDS: ReadonlySet<Kind> = new Set<Kind>(["slow", "never", "late"]);

type Decision =
  | { readonly kind: "continue"; readonly value: unknown }
  | { readonly kind: "halt" }
  | { readonly kind: "throw"; readonly thrown: unknown }
  | { readonly kind: "garbage"; readonly label: string; readonly make: () => unknown };

/** `default` leaves `onToolError` out; `fn` answers `decisions[index % length]` for call `index`. */
type PolicySpec = { readonly kind: "default" | "continue" | "halt" } | { readonly kind: "fn"; readonly decisions: readonly Decision[] };

interface BatchSpec {
  readonly behaviours: readonly Behaviour[];
  readonly policy: PolicySpec;
  readonly maxConcurrency: number;
  readonly toolTimeout: number;
  readonly idPrefix: string;
}

// ---------------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------------

const RESERVED: ReadonlySet<string> = new Set(RESERVED_HALT_REASONS);

/** Fresh object per generated value, so identity checks mean something. */
const fresh = <T>(make: () => T): fc.Arbitrary<T> => fc.constant(null).map(make);

const encodableArb: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 2 });
/** Values `jsonEncoder.encode` rejects: the runner must answer `encoding_failed`. */
const unencodableArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(undefined),
  fc.bigInt(),
  fresh(() => () => "a function"),
);
const valueArb: fc.Arbitrary<unknown> = fc.oneof({ arbitrary: encodableArb, weight: 5 }, { arbitrary: unencodableArb, weight: 1 });

const timingArb: fc.Arbitrary<Timing> = fc.oneof(fc.constant<Timing>("sync"), fc.integer({ min: 0, max: 3 }));

const errorReasonArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.string(),
  fc.string().map((m) => new Error(m)),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
  fc.integer(),
  fc.constant(null),
  fc.constant(undefined),
);

/** Illegal handler returns (§2). */
const invalidReturnArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.string(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fresh(() => ({ type: "ok" })),
  fc.integer().map((question) => ({ type: "ask_user", question })),
  fresh(() => ({ type: "ask_user", question: "q", opts: null })),
  fresh(() => ({ type: "halt", reason: 1, result: 1 })),
  fresh(() => ({ type: "halt", reason: "no result" })),
  fresh(() => ({ type: "error" })),
  fresh(() => ({ type: "success", value: 1 })),
);

const behaviourArb: fc.Arbitrary<Behaviour> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("ok" as const), timing: timingArb, value: valueArb }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("error" as const), timing: timingArb, reason: errorReasonArb }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("throw" as const),
      timing: timingArb,
      thrown: fc.oneof(
        fc.string().map((m) => new Error(m)),
        fc.string(),
        fc.constant(undefined),
      ),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("invalid" as const), timing: timingArb, value: invalidReturnArb }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("askUser" as const),
      timing: timingArb,
      question: fc.string(),
      opts: fc.option(fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }), { nil: undefined }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("halt" as const),
      timing: timingArb,
      reason: fc.string().filter((r) => !RESERVED.has(r)),
      result: valueArb,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("reservedHalt" as const),
      timing: timingArb,
      reason: fc.constantFrom(...RESERVED_HALT_REASONS),
      result: encodableArb,
    }),
  },
  { weight: 1, arbitrary: fc.constant<Behaviour>({ kind: "badArgs" }) },
  { weight: 1, arbitrary: fc.constant<Behaviour>({ kind: "slow" }) },
  { weight: 1, arbitrary: fc.constant<Behaviour>({ kind: "never" }) },
  { weight: 1, arbitrary: fc.constantFrom<Behaviour>({ kind: "late", settle: "resolve" }, { kind: "late", settle: "reject" }) },
);

/** A policy function's answers that are neither `{ continue }` nor `"halt"`. */
const GARBAGE: readonly (readonly [string, () => unknown])[] = [
  ["a number", () => 42],
  ["null", () => null],
  ["undefined", () => undefined],
  ['"continue"', () => "continue"],
  ['"HALT"', () => "HALT"],
  ["an object without continue", () => ({ cont: 1 })],
  ["continue on the prototype only", () => Object.create({ continue: 1 }) as object],
  ["an array", () => ["halt"]],
  ["a promise of { continue }", () => Promise.resolve({ continue: 1 })],
  ["a rejected promise", () => Promise.reject(new Error("an async policy"))],
];

const decisionArb: fc.Arbitrary<Decision> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("continue" as const), value: valueArb }) },
  { weight: 2, arbitrary: fc.constant<Decision>({ kind: "halt" }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("throw" as const),
      thrown: fc.oneof(
        fc.string().map((m) => new Error(m)),
        fc.string(),
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(...GARBAGE).map(([label, make]): Decision => ({ kind: "garbage", label, make })),
  },
);

const policyArb: fc.Arbitrary<PolicySpec> = fc.oneof(
  fc.constantFrom<PolicySpec>({ kind: "default" }, { kind: "continue" }, { kind: "halt" }),
  fc.record({ kind: fc.constant("fn" as const), decisions: fc.array(decisionArb, { minLength: 1, maxLength: 6 }) }),
);

const batchArb: fc.Arbitrary<BatchSpec> = fc.record({
  behaviours: fc.array(behaviourArb, { minLength: 1, maxLength: 40 }),
  policy: policyArb,
  maxConcurrency: fc.integer({ min: 1, max: 8 }),
  toolTimeout: fc.integer({ min: 5, max: 25 }),
  idPrefix: fc.stringMatching(/^[a-z]{1,4}$/),
});

// ---------------------------------------------------------------------------------------------
// Instruments: a scheduler that counts live timers, a signal that counts live listeners
// ---------------------------------------------------------------------------------------------

/**
 * `asyncScheduler`, counting the actions that are neither executed nor unsubscribed. (The runner
 * never reschedules an action from inside its work, so "executed" means "done".)
 */
class CountingScheduler implements SchedulerLike {
  readonly #live = new Set<object>();
  scheduled = 0;
  fired = 0;

  get live(): number {
    return this.#live.size;
  }

  now(): number {
    return asyncScheduler.now();
  }

  schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay?: number, state?: T): Subscription {
    const token = {};
    const live = this.#live;
    const onFire = () => {
      live.delete(token);
      this.fired++;
    };
    this.scheduled++;
    live.add(token);
    const subscription = asyncScheduler.schedule(
      function (this: SchedulerAction<T>, s?: T) {
        onFire();
        work.call(this, s);
      },
      delay,
      state,
    );
    subscription.add(() => live.delete(token));
    return subscription;
  }
}

interface ListenerEntry {
  readonly type: string;
  readonly listener: EventListenerOrEventListenerObject;
  readonly capture: boolean;
  readonly once: boolean;
}

/** Wraps a signal's add/removeEventListener to count the listeners others leave on it. */
class ListenerCount {
  readonly #entries: ListenerEntry[] = [];
  added = 0;

  constructor(signal: AbortSignal) {
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    // Registered first and not counted: `once` listeners are gone after the abort event.
    add("abort", () => {
      for (let i = this.#entries.length - 1; i >= 0; i--) {
        const entry = this.#entries[i];
        if (entry?.once && entry.type === "abort") this.#entries.splice(i, 1);
      }
    });
    const capture = (options: boolean | EventListenerOptions | undefined) => (typeof options === "boolean" ? options : options?.capture === true);
    const find = (type: string, listener: EventListenerOrEventListenerObject, c: boolean) =>
      this.#entries.findIndex((e) => e.type === type && e.listener === listener && e.capture === c);
    Object.defineProperty(signal, "addEventListener", {
      configurable: true,
      value: (type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions) => {
        if (listener !== null && find(type, listener, capture(options)) === -1) {
          this.added++;
          this.#entries.push({ type, listener, capture: capture(options), once: typeof options === "object" && options.once === true });
        }
        if (listener !== null) add(type, listener, options);
      },
    });
    Object.defineProperty(signal, "removeEventListener", {
      configurable: true,
      value: (type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | EventListenerOptions) => {
        if (listener === null) return;
        const at = find(type, listener, capture(options));
        if (at !== -1) this.#entries.splice(at, 1);
        remove(type, listener, options);
      },
    });
  }

  get live(): number {
    return this.#entries.length;
  }
}

// ---------------------------------------------------------------------------------------------
// The harness: one per run, handed to handlers as `ctx.context`
// ---------------------------------------------------------------------------------------------

/** One invocation of a handler, on the harness clock. */
interface HandlerRecord {
  readonly startedAt: number;
  settledAt: number | undefined;
  abortedAt: number | undefined;
  readonly signal: AbortSignal;
  /** What the handler returned (sync) or resolved with (async). */
  returned: unknown;
}

interface PolicyCall {
  readonly call: ToolCall;
  readonly error: unknown;
}

interface Stamped {
  readonly event: ToolEvent;
  readonly at: number;
}

class Harness {
  readonly spec: BatchSpec;
  readonly calls: readonly ToolCall[];
  readonly scheduler = new CountingScheduler();
  readonly controller = new AbortController();
  readonly listeners = new ListenerCount(this.controller.signal);
  readonly abortReason = new Error("aborted by the test");
  readonly handlers: HandlerRecord[][];
  readonly policyCalls: PolicyCall[][];
  /** Settles when every handler that will ever settle has (slow, late). */
  readonly background: Promise<void>[] = [];
  readonly unhandled: unknown[] = [];
  /** Called in each handler's synchronous body, with the number of handlers started so far. */
  onHandlerStart: ((count: number) => void) | undefined;
  handlerStarts = 0;
  active = 0;
  peak = 0;
  #clock = 0;
  readonly #indexOf = new Map<string, number>();

  constructor(spec: BatchSpec) {
    this.spec = spec;
    this.calls = spec.behaviours.map((b, i) => ({
      id: `${spec.idPrefix}-${i}`,
      name: `t_${b.kind}`,
      arguments: b.kind === "badArgs" ? { n: "not a number" } : { n: i },
    }));
    this.calls.forEach((c, i) => {
      this.#indexOf.set(c.id, i);
    });
    this.handlers = spec.behaviours.map(() => []);
    this.policyCalls = spec.behaviours.map(() => []);
  }

  tick(): number {
    return ++this.#clock;
  }

  options(): RunOptions {
    const { maxConcurrency, toolTimeout } = this.spec;
    const options: RunOptions = { context: this, maxConcurrency, toolTimeout, scheduler: this.scheduler, signal: this.controller.signal };
    const policy = this.policy();
    if (policy !== undefined) options.onToolError = policy;
    return options;
  }

  /** The decision the policy takes for call `index`, as `fn` would answer it. */
  decisionFor(index: number): Decision {
    const { policy } = this.spec;
    if (policy.kind === "fn") return policy.decisions[index % policy.decisions.length] as Decision;
    return policy.kind === "halt" ? { kind: "halt" } : { kind: "continue", value: CONTINUE_AS_ERROR };
  }

  policy(): OnToolError | undefined {
    const { policy } = this.spec;
    if (policy.kind === "default") return undefined;
    if (policy.kind !== "fn") return policy.kind;
    const decisions = policy.decisions;
    return (call: ToolCall, error: unknown): ToolErrorDecision => {
      const index = this.#indexOf.get(call.id);
      if (index === undefined) throw new Error(`policy called with an unknown call ${call.id}`);
      this.policyCalls[index]?.push({ call, error });
      const d = decisions[index % decisions.length] as Decision;
      switch (d.kind) {
        case "continue":
          return { continue: d.value };
        case "halt":
          return "halt";
        case "throw":
          throw d.thrown;
        case "garbage":
          return d.make() as ToolErrorDecision;
      }
    };
  }

  /** The one handler behind every tool: behaves as the batch says for call `n`. */
  invoke(n: number, ctx: HandlerContext): HandlerReturn {
    const b = this.spec.behaviours[n];
    if (b === undefined) throw new Error(`no behaviour for call ${n}`);
    const rec: HandlerRecord = { startedAt: this.tick(), settledAt: undefined, abortedAt: undefined, signal: ctx.signal, returned: undefined };
    this.handlers[n]?.push(rec);
    this.active++;
    this.peak = Math.max(this.peak, this.active);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.active--;
    };
    const onAbort = () => {
      rec.abortedAt ??= this.tick();
      release();
    };
    if (ctx.signal.aborted) onAbort();
    else ctx.signal.addEventListener("abort", onAbort, { once: true });
    const settle = (returned: unknown) => {
      rec.settledAt = this.tick();
      rec.returned = returned;
      release();
    };
    this.onHandlerStart?.(++this.handlerStarts);

    switch (b.kind) {
      case "ok":
        return this.#answer(b.timing, () => ok(b.value), settle);
      case "error":
        return this.#answer(b.timing, () => error(b.reason), settle);
      case "throw":
        return this.#answer(
          b.timing,
          () => {
            throw b.thrown;
          },
          settle,
        );
      case "invalid":
        return this.#answer(b.timing, () => b.value as HandlerResult, settle);
      case "askUser":
        return this.#answer(
          b.timing,
          () => (b.opts === undefined ? ({ type: "ask_user", question: b.question } as const) : askUser(b.question, b.opts)),
          settle,
        );
      case "halt":
      case "reservedHalt":
        return this.#answer(b.timing, () => halt(b.reason, b.result), settle);
      case "badArgs":
        settle(undefined);
        throw new Error("invalid arguments reached the handler");
      case "slow": {
        const sleep = this.spec.toolTimeout + 3;
        let done!: () => void;
        this.background.push(new Promise<void>((resolve) => (done = resolve)));
        // The sleep starts in a microtask: after the runner armed the deadline (see the file header).
        return Promise.resolve().then(
          () =>
            new Promise<HandlerResult>((resolve) => {
              setTimeout(() => {
                const late = ok("a result after the deadline");
                settle(late);
                resolve(late);
                done();
              }, sleep);
            }),
        );
      }
      case "never":
        return new Promise<HandlerResult>(() => undefined);
      case "late": {
        let done!: () => void;
        this.background.push(new Promise<void>((resolve) => (done = resolve)));
        return new Promise<HandlerResult>((resolve, reject) => {
          let fired = false;
          const fire = () => {
            if (fired) return;
            fired = true;
            clearTimeout(fallback);
            setTimeout(() => {
              const late = ok("a result after the abort");
              settle(late);
              if (b.settle === "resolve") resolve(late);
              else reject(new Error("a rejection after the abort"));
              done();
            }, 1);
          };
          // Should the signal never abort (a bug), settle anyway so the run ends and the checks say why.
          const fallback = setTimeout(fire, 40 * this.spec.toolTimeout);
          if (ctx.signal.aborted) fire();
          else ctx.signal.addEventListener("abort", fire, { once: true });
        });
      }
    }
  }

  #answer(timing: Timing, answer: () => HandlerResult, settle: (returned: unknown) => void): HandlerReturn {
    if (timing === "sync") {
      let returned: HandlerResult;
      try {
        returned = answer();
      } catch (thrown) {
        settle(undefined);
        throw thrown;
      }
      settle(returned);
      return returned;
    }
    return (async () => {
      for (let i = 0; i < timing; i++) await null;
      let returned: HandlerResult;
      try {
        returned = answer();
      } catch (thrown) {
        settle(undefined);
        throw thrown;
      }
      settle(returned);
      return returned;
    })();
  }
}

/** Marks the "continue" of a string policy: the error text, not a replacement value. */
const CONTINUE_AS_ERROR = Symbol("continue as error");

function harnessOf(ctx: HandlerContext): Harness {
  if (!(ctx.context instanceof Harness)) throw new Error("ctx.context is not the test harness");
  return ctx.context;
}

const argsSchema = z.object({ n: z.number().int().nonnegative() });

/** One tool per behaviour, so `toolName` varies; all share the harness's handler. */
const TOOLS = KINDS.map((kind) =>
  defineTool({
    name: `t_${kind}`,
    description: `a tool that behaves as "${kind}"`,
    schema: argsSchema,
    handler: (args, ctx) => harnessOf(ctx).invoke(args.n, ctx),
  }),
);

// ---------------------------------------------------------------------------------------------
// Running a batch
// ---------------------------------------------------------------------------------------------

/** Where a run is cut short: after the k-th event, or inside the m-th handler to start. */
type Cut = { readonly trigger: "event" | "handler"; readonly after: number; readonly action: "unsubscribe" | "abort" };

type End = { readonly kind: "complete" } | { readonly kind: "error"; readonly error: unknown };

interface StreamRun {
  readonly events: readonly Stamped[];
  readonly end: End;
  /** Clock reading at the cut; `undefined` when the run was not cut. */
  readonly cutAt: number | undefined;
  /** Live timers and listeners right after the stream ended (complete, error or unsubscribed). */
  readonly timersAtEnd: number;
  readonly listenersAtEnd: number;
}

const WATCHDOG_MS = 10_000;

/** Fails instead of hanging when a run never ends. */
async function withWatchdog<T>(what: string, run: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const watchdog = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not end within ${WATCHDOG_MS} ms`)), WATCHDOG_MS);
  });
  try {
    return await Promise.race([run, watchdog]);
  } finally {
    clearTimeout(timer);
  }
}

/** Subscribe to `streamToolCalls`, cutting the run as `cut` says. */
async function observeStream(h: Harness, cut?: Cut): Promise<StreamRun> {
  const events: Stamped[] = [];
  let cutAt: number | undefined;
  const stop$ = new Subject<void>();
  const doCut = () => {
    if (cutAt !== undefined) return;
    cutAt = h.tick();
    if (cut?.action === "abort") h.controller.abort(h.abortReason);
    else stop$.next();
  };
  if (cut?.trigger === "handler") {
    h.onHandlerStart = (count) => {
      if (count === cut.after) doCut();
    };
  }
  const end = await withWatchdog(
    "the stream",
    new Promise<End>((resolve) => {
      streamToolCalls(h.calls, TOOLS, h.options())
        .pipe(
          tap((event) => {
            events.push({ event, at: h.tick() });
            if (cut?.trigger === "event" && events.length === cut.after) doCut();
          }),
          takeUntil(stop$),
        )
        .subscribe({ complete: () => resolve({ kind: "complete" }), error: (e: unknown) => resolve({ kind: "error", error: e }) });
    }),
  );
  // `complete`/`error` reach us before the subscription's teardown has run; read the counters after it.
  await Promise.resolve();
  return { events, end, cutAt, timersAtEnd: h.scheduler.live, listenersAtEnd: h.listeners.live };
}

/** Wait for every handler that will settle, then one macrotask for unhandled rejections to surface. */
async function settleAll(h: Harness): Promise<void> {
  await withWatchdog("the handlers", Promise.all(h.background));
  await new Promise((resolve) => setTimeout(resolve, 1));
}

/** Run `body` with `unhandledRejection` recorded on the harness. */
async function recordingUnhandled<T>(harnesses: readonly Harness[], body: () => Promise<T>): Promise<T> {
  const onUnhandled = (reason: unknown) => {
    for (const h of harnesses) h.unhandled.push(reason);
  };
  process.on("unhandledRejection", onUnhandled);
  try {
    return await body();
  } finally {
    process.off("unhandledRejection", onUnhandled);
  }
}

// ---------------------------------------------------------------------------------------------
// Oracles
// ---------------------------------------------------------------------------------------------

/** What `jsonEncoder.encode` gives, or `undefined` when it must throw (§5). */
function encodingOf(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  try {
    const text: unknown = JSON.stringify(value);
    return typeof text === "string" ? text : undefined;
  } catch {
    return undefined;
  }
}

function show(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "function") return "a function";
  if (value instanceof Error) return `Error(${JSON.stringify(value.message)})`;
  return encodingOf(value) ?? String(value);
}

function describeBehaviour(b: Behaviour): string {
  switch (b.kind) {
    case "ok":
      return `ok(${show(b.value)}) ${b.timing === "sync" ? "sync" : "async"}`;
    case "error":
      return `error(${show(b.reason)}) ${b.timing === "sync" ? "sync" : "async"}`;
    case "throw":
      return `throws ${show(b.thrown)} ${b.timing === "sync" ? "sync" : "async"}`;
    case "invalid":
      return `returns ${show(b.value)} ${b.timing === "sync" ? "sync" : "async"}`;
    case "askUser":
    case "halt":
    case "reservedHalt":
      return `${b.kind} ${b.timing === "sync" ? "sync" : "async"}`;
    default:
      return b.kind;
  }
}

/** The error term E a call must route through the policy. */
type TermExpectation =
  | { readonly own: true }
  | { readonly toolError: ToolErrorReason; readonly check: (e: ToolErrorLike) => void }
  | { readonly invalidArguments: true };

type ToolErrorLike = { reason: ToolErrorReason; toolName?: string; toolCallId?: string; cause?: unknown; metadata: Record<string, unknown>; message: string };

/**
 * The executor result, the policy's decision and the tail event of call `i`, against §2, §4
 * and §6's outcome table.
 */
function expectOutcome(h: Harness, i: number, completed: ToolExecutionCompleted, tail: ToolTailEvent): void {
  const b = h.spec.behaviours[i] as Behaviour;
  const where = `call ${i} (${describeBehaviour(b)}, policy ${policyName(h, i)})`;
  const records = h.handlers[i] ?? [];
  if (b.kind === "badArgs") expect(records, `${where}: invalid arguments never reach the handler`).toHaveLength(0);
  else expect(records, `${where}: the handler runs exactly once`).toHaveLength(1);
  const rec = records[0];

  // A result that arrives after the deadline answers `timeout` with `metadata.settled: true`
  // (issue 9.10). With deadlines of 5–25 ms on a shared machine, even a sync or microtask
  // handler can see the event loop held past its deadline; its late result must then lose.
  const term = h.policyCalls[i]?.[0]?.error ?? (completed.result.type === "error" ? completed.result.reason : undefined);
  if (b.kind !== "badArgs" && isToolError(term) && term.reason === "timeout" && term.metadata.settled === true) {
    expectPolicy(h, i, completed, tail, where, {
      toolError: "timeout",
      check: () => expect(rec?.settledAt, `${where}: a late timeout is one whose handler settled`).toBeDefined(),
    });
    return;
  }

  const success = (content: string | undefined, tailType: ToolTailEvent["type"]): boolean => {
    if (content === undefined) return false;
    expect(h.policyCalls[i], `${where}: the policy is not consulted on success`).toHaveLength(0);
    expect(completed.result, `${where}: completed.result is the handler's own result`).toBe(rec?.returned);
    expect(tail.type, `${where}: tail event`).toBe(tailType);
    return true;
  };

  switch (b.kind) {
    case "ok": {
      if (success(encodingOf(b.value), "tool_result_encoded")) {
        expect(tail, where).toStrictEqual({ ...baseOf(h, i), type: "tool_result_encoded", content: encodingOf(b.value), isError: false });
        return;
      }
      expectPolicy(h, i, completed, tail, where, { toolError: "encoding_failed", check: () => undefined });
      return;
    }
    case "askUser":
      success("", "ask_user_requested");
      expect(tail, where).toStrictEqual({ ...baseOf(h, i), type: "ask_user_requested", question: b.question, opts: b.opts ?? {} });
      if (b.opts !== undefined && tail.type === "ask_user_requested") expect(tail.opts, `${where}: opts passed through`).toBe(b.opts);
      return;
    case "halt": {
      if (success(encodingOf(b.result), "tool_halt")) {
        expect(tail, where).toStrictEqual({
          ...baseOf(h, i),
          type: "tool_halt",
          reason: b.reason,
          result: b.result,
          content: encodingOf(b.result),
          isError: false,
        });
        if (tail.type === "tool_halt") expect(tail.result, `${where}: the halt's result`).toBe(b.result);
        return;
      }
      expectPolicy(h, i, completed, tail, where, { toolError: "encoding_failed", check: () => undefined });
      return;
    }
    case "reservedHalt":
      expectPolicy(h, i, completed, tail, where, {
        toolError: "invalid_return",
        check: (e) => {
          expect(e.metadata.reservedHaltReason, `${where}: metadata.reservedHaltReason`).toBe(b.reason);
          expect(e.message, `${where}: the message says "reserved"`).toMatch(/reserved/);
        },
      });
      return;
    case "error":
      expectPolicy(h, i, completed, tail, where, { own: true });
      return;
    case "throw":
      expectPolicy(h, i, completed, tail, where, {
        toolError: "handler_raised",
        check: (e) => {
          if (b.thrown instanceof Error) expect(e.cause, `${where}: cause is the thrown Error`).toBe(b.thrown);
          else expect(e.cause, `${where}: a non-Error throw is kept as { thrown }`).toStrictEqual({ thrown: b.thrown });
        },
      });
      return;
    case "invalid":
      expectPolicy(h, i, completed, tail, where, {
        toolError: "invalid_return",
        check: (e) => expect(e.cause, `${where}: cause is the offending value`).toBe(b.value),
      });
      return;
    case "badArgs":
      expectPolicy(h, i, completed, tail, where, { invalidArguments: true });
      return;
    case "slow":
    case "never":
    case "late":
      expectPolicy(h, i, completed, tail, where, {
        toolError: "timeout",
        check: (e) => {
          expect(rec?.signal.aborted, `${where}: a deadline aborts ctx.signal`).toBe(true);
          expect(rec?.signal.reason, `${where}: ... with the timeout ToolError as its reason`).toBe(e);
        },
      });
      return;
  }
}

/** Calls whose handler settled but whose result came after the deadline, answered `timeout`. */
function lateTimeouts(h: Harness, messages: readonly ToolMessage[]): number[] {
  const late: number[] = [];
  messages.forEach((m, i) => {
    const kind = h.spec.behaviours[i]?.kind;
    if (kind === "slow" || kind === "never" || kind === "late") return;
    const term = h.policyCalls[i]?.[0]?.error;
    if ((isToolError(term) && term.reason === "timeout") || m.content.includes("timed out after")) late.push(i);
  });
  return late;
}

function policyName(h: Harness, i: number): string {
  const { policy } = h.spec;
  if (policy.kind !== "fn") return `"${policy.kind}"`;
  const d = h.decisionFor(i);
  switch (d.kind) {
    case "continue":
      return `fn → { continue: ${show(d.value)} }`;
    case "halt":
      return `fn → "halt"`;
    case "throw":
      return `fn throws ${show(d.thrown)}`;
    case "garbage":
      return `fn → ${d.label}`;
  }
}

function baseOf(h: Harness, i: number): { index: number; toolCallId: string; toolName: string } {
  const call = h.calls[i] as ToolCall;
  return { index: i, toolCallId: call.id, toolName: call.name };
}

function asToolError(value: unknown, where: string): ToolErrorLike {
  expect(isToolError(value), `${where}: ${show(value)} is a ToolError`).toBe(true);
  return value as ToolErrorLike;
}

/** A call whose executor result is the error term E: check E, then what the policy made of it. */
function expectPolicy(h: Harness, i: number, completed: ToolExecutionCompleted, tail: ToolTailEvent, where: string, term: TermExpectation): void {
  const call = h.calls[i] as ToolCall;
  const rec = h.handlers[i]?.[0];
  const isFn = h.spec.policy.kind === "fn";
  const policyCalls = h.policyCalls[i] ?? [];
  if (isFn) expect(policyCalls, `${where}: a policy function is called exactly once`).toHaveLength(1);
  else expect(policyCalls, where).toHaveLength(0);
  const E: unknown = completed.result.type === "error" ? completed.result.reason : policyCalls[0]?.error;

  // E itself.
  if ("own" in term) {
    expect(E, `${where}: a handler's own error reason passes through unchanged`).toBe((rec?.returned as { reason?: unknown } | undefined)?.reason);
  } else if ("invalidArguments" in term) {
    expect(E, `${where}: invalid arguments answer an InvalidArgumentsError`).toBeInstanceOf(InvalidArgumentsError);
    expect(isToolError(E), `${where}: ... which is not a ToolError`).toBe(false);
    const issues = (E as InvalidArgumentsError).issues;
    expect(
      issues.some((issue) => issue.path[0] === "n"),
      `${where}: the issues name the wrong field`,
    ).toBe(true);
  } else {
    const e = asToolError(E, where);
    expect(e.reason, `${where}: ToolError reason`).toBe(term.toolError);
    expect(e.toolName, `${where}: ToolError toolName`).toBe(call.name);
    expect(e.toolCallId, `${where}: ToolError toolCallId`).toBe(call.id);
    term.check(e);
  }
  if (isFn) {
    expect(policyCalls[0]?.call, `${where}: the policy gets the call`).toBe(call);
    expect(policyCalls[0]?.error, `${where}: the policy gets E`).toBe(E);
  }

  const ownCompleted = () => {
    if ("own" in term) expect(completed.result, `${where}: completed.result is the handler's own error result`).toBe(rec?.returned);
    else expect(completed.result, `${where}: completed.result is error(E)`).toStrictEqual(error(E));
  };
  const haltWith = (result: unknown) => {
    ownCompleted();
    expect(tail, `${where}: the policy halts`).toStrictEqual({
      ...baseOf(h, i),
      type: "tool_halt",
      reason: "tool_error",
      result,
      content: jsonEncoder.encodeError(result),
      isError: true,
    });
    if (tail.type === "tool_halt") expect(tail.result, `${where}: the halt carries the error term`).toBe(result);
  };
  const tailResult = tail.type === "tool_halt" ? tail.result : undefined;

  const d = h.decisionFor(i);
  switch (d.kind) {
    case "continue": {
      if (d.value === CONTINUE_AS_ERROR) {
        ownCompleted();
        expect(tail, `${where}: "continue" answers the error text`).toStrictEqual({
          ...baseOf(h, i),
          type: "tool_result_encoded",
          content: jsonEncoder.encodeError(E),
          isError: true,
        });
        return;
      }
      const text = encodingOf(d.value);
      if (text !== undefined) {
        expect(completed.result, `${where}: { continue: r } completes as ok(r)`).toStrictEqual(ok(d.value));
        expect((completed.result as { value?: unknown }).value, where).toBe(d.value);
        expect(tail, `${where}: { continue: r } answers encode(r)`).toStrictEqual({
          ...baseOf(h, i),
          type: "tool_result_encoded",
          content: text,
          isError: false,
        });
        return;
      }
      const e = asToolError(tailResult, `${where}: an unencodable { continue: r } halts with encoding_failed`);
      expect(e.reason, `${where}: an unencodable { continue: r } halts with encoding_failed`).toBe("encoding_failed");
      haltWith(tailResult);
      return;
    }
    case "halt":
      haltWith(E);
      return;
    case "throw": {
      const e = asToolError(tailResult, `${where}: a throwing policy halts with invalid_return`);
      expect(e.reason, `${where}: a throwing policy halts with invalid_return`).toBe("invalid_return");
      expect(e.metadata.onToolErrorThrew, `${where}: metadata.onToolErrorThrew`).toBe(true);
      expect(e.cause, `${where}: cause is what the policy threw`).toBe(d.thrown);
      haltWith(tailResult);
      return;
    }
    case "garbage": {
      const e = asToolError(tailResult, `${where}: a policy answering ${d.label} halts with invalid_return`);
      expect(e.reason, `${where}: a policy answering ${d.label} halts with invalid_return`).toBe("invalid_return");
      expect(e.metadata.onToolErrorThrew, where).not.toBe(true);
      haltWith(tailResult);
      return;
    }
  }
}

/** The message a tail event stands for (§6). */
function messageOf(tail: ToolTailEvent): ToolMessage {
  const ask = tail.type === "ask_user_requested";
  return {
    role: "tool",
    toolCallId: tail.toolCallId,
    name: tail.toolName,
    content: ask ? AWAITING_USER_RESPONSE : tail.content,
    isError: ask ? false : tail.isError,
  };
}

/** The halt of the lowest-index call whose tail halts, per `HaltMetadata`. */
function expectedHalt(h: Harness, tails: readonly ToolTailEvent[]): HaltMetadata | undefined {
  for (const tail of tails) {
    if (tail.type === "ask_user_requested") {
      return { haltedReason: "ask_user", pendingQuestion: tail.question, pendingToolCallId: tail.toolCallId, askUserOpts: tail.opts };
    }
    if (tail.type === "tool_halt") {
      if (tail.reason !== "tool_error") return { haltedReason: tail.reason, haltToolCallId: tail.toolCallId, haltResult: tail.result };
      const d = h.decisionFor(tail.index);
      return d.kind === "throw"
        ? { haltedReason: "tool_error", haltToolCallId: tail.toolCallId, onToolErrorException: d.thrown }
        : { haltedReason: "tool_error", haltToolCallId: tail.toolCallId };
    }
  }
  return undefined;
}

const TAIL_TYPES: ReadonlySet<ToolEvent["type"]> = new Set(["tool_result_encoded", "ask_user_requested", "tool_halt"]);

/**
 * §6 per call: `started`, `completed`, then one tail event, in that order, with the call's index,
 * id and name; the handler (if any) runs between `started` and `completed`; at most
 * `maxConcurrency` calls between `started` and their tail at any time. With `complete`, every
 * call has its three events; otherwise each has a prefix of them. Returns the tails by index.
 */
function expectEventShape(h: Harness, events: readonly Stamped[], complete: boolean): (ToolTailEvent | undefined)[] {
  const n = h.calls.length;
  const perCall: Stamped[][] = h.calls.map(() => []);
  let inFlight = 0;
  for (const stamped of events) {
    const { event } = stamped;
    expect(Number.isInteger(event.index) && event.index >= 0 && event.index < n, `event index ${event.index} is in range`).toBe(true);
    const call = h.calls[event.index] as ToolCall;
    expect(event.toolCallId, `event ${event.type} of call ${event.index}: toolCallId`).toBe(call.id);
    expect(event.toolName, `event ${event.type} of call ${event.index}: toolName`).toBe(call.name);
    perCall[event.index]?.push(stamped);
    if (event.type === "tool_execution_started") inFlight++;
    if (TAIL_TYPES.has(event.type)) inFlight--;
    expect(inFlight, "calls between started and their tail event").toBeLessThanOrEqual(h.spec.maxConcurrency);
  }
  const tails: (ToolTailEvent | undefined)[] = [];
  perCall.forEach((list, i) => {
    const where = `call ${i} (${describeBehaviour(h.spec.behaviours[i] as Behaviour)})`;
    const types = list.map((s) => s.event.type);
    if (complete) expect(types.length, `${where}: exactly three events, got ${types.join(", ")}`).toBe(3);
    expect(types.length, `${where}: at most three events, got ${types.join(", ")}`).toBeLessThanOrEqual(3);
    if (types.length >= 1) expect(types[0], `${where}: first event`).toBe("tool_execution_started");
    if (types.length >= 2) expect(types[1], `${where}: second event`).toBe("tool_execution_completed");
    if (types.length >= 3) expect(TAIL_TYPES.has(types[2] as ToolEvent["type"]), `${where}: third event ${types[2]} is a tail event`).toBe(true);
    const [started, completed, tail] = list;
    if (started !== undefined && started.event.type === "tool_execution_started") {
      expect(started.event.arguments, `${where}: started carries the call's arguments`).toEqual((h.calls[i] as ToolCall).arguments);
    }
    for (const rec of h.handlers[i] ?? []) {
      if (started !== undefined) expect(rec.startedAt, `${where}: the handler starts after started`).toBeGreaterThan(started.at);
      if (completed !== undefined) expect(rec.startedAt, `${where}: the handler starts before completed`).toBeLessThan(completed.at);
    }
    tails.push(tail?.event as ToolTailEvent | undefined);
  });
  return tails;
}

/** Handlers: never more running than `maxConcurrency`; each called at most once. */
function expectHandlerBounds(h: Harness): void {
  expect(h.peak, "peak number of running handlers").toBeLessThanOrEqual(h.spec.maxConcurrency);
  h.handlers.forEach((records, i) => {
    expect(records.length, `call ${i}: handler calls`).toBeLessThanOrEqual(1);
  });
}

function expectNothingLeft(h: Harness, when: string, timers = h.scheduler.live, listeners = h.listeners.live): void {
  expect(timers, `live deadline timers ${when}`).toBe(0);
  expect(listeners, `live listeners on opts.signal ${when}`).toBe(0);
}

/** §6 "Deadlines and cancellation", for a run cut at `cutAt`. */
function expectCutRespected(h: Harness, cutAt: number): void {
  h.handlers.forEach((records, i) => {
    for (const rec of records) {
      const where = `call ${i} (${describeBehaviour(h.spec.behaviours[i] as Behaviour)})`;
      expect(rec.startedAt, `${where}: no handler starts after the cut`).toBeLessThan(cutAt);
      const runningAtCut = rec.settledAt === undefined || rec.settledAt > cutAt;
      if (runningAtCut) expect(rec.signal.aborted, `${where}: a handler running at the cut has its ctx.signal aborted`).toBe(true);
    }
  });
}

/** Everything a run to completion promises, from its stream. Returns its messages and halt. */
function expectCompletedStream(h: Harness, run: StreamRun): { messages: ToolMessage[]; halt: HaltMetadata | undefined } {
  expect(run.end, "the stream completes").toStrictEqual({ kind: "complete" });
  expectNothingLeft(h, "when the stream completes", run.timersAtEnd, run.listenersAtEnd);
  const tails = expectEventShape(h, run.events, true) as ToolTailEvent[];
  tails.forEach((tail, i) => {
    const completed = run.events.find((s) => s.event.index === i && s.event.type === "tool_execution_completed")?.event;
    expectOutcome(h, i, completed as ToolExecutionCompleted, tail);
  });
  expectHandlerBounds(h);
  if (h.spec.behaviours.some((b) => TIMED_OUT_KINDS.has(b.kind))) {
    expect(h.scheduler.fired, "deadlines run on opts.scheduler").toBeGreaterThan(0);
  }
  return { messages: tails.map(messageOf), halt: expectedHalt(h, tails) };
}

// ---------------------------------------------------------------------------------------------
// The properties
// ---------------------------------------------------------------------------------------------

const RUNS = { complete: 80, batch: 50, unsubscribe: 120, abort: 120 } as const;
const TIMEOUT = 120_000;

describe("the runner, over random batches of 1..40 calls mixing every handler behaviour, policy, maxConcurrency and toolTimeout", () => {
  describe("a batch run to completion", () => {
    it(
      "streams started, completed and one tail event per call, in that order, each with the outcome its handler and onToolError call for, never more than maxConcurrency handlers at once, no unhandled rejection, and no timer or listener left behind",
      async () => {
        await fc.assert(
          fc.asyncProperty(batchArb, async (spec) => {
            const h = new Harness(spec);
            await recordingUnhandled([h], async () => {
              const run = await observeStream(h);
              await settleAll(h);
              expectCompletedStream(h, run);
              expect(h.unhandled, "unhandled rejections").toEqual([]);
              expectNothingLeft(h, "once every handler settled");
              expectHandlerBounds(h);
            });
          }),
          { numRuns: RUNS.complete },
        );
      },
      TIMEOUT,
    );

    it(
      "collects one message per call in input order, the same messages as the stream, and the halt of the lowest-index call that halted",
      async () => {
        await fc.assert(
          fc.asyncProperty(batchArb, async (spec) => {
            const streamed = new Harness(spec);
            const batched = new Harness(spec);
            await recordingUnhandled([streamed, batched], async () => {
              const [run, result] = await Promise.all([
                observeStream(streamed),
                withWatchdog("runToolCalls", runToolCalls(batched.calls, TOOLS, batched.options())),
              ]);
              const timersAtEnd = batched.scheduler.live;
              const listenersAtEnd = batched.listeners.live;
              await Promise.all([settleAll(streamed), settleAll(batched)]);
              const fromStream = expectCompletedStream(streamed, run);

              const { messages } = result satisfies RunResult;
              expect(messages, "one message per call").toHaveLength(spec.behaviours.length);
              messages.forEach((m, i) => {
                expect(m.toolCallId, `messages[${i}].toolCallId is calls[${i}].id`).toBe(batched.calls[i]?.id);
                expect(m.name, `messages[${i}].name`).toBe(batched.calls[i]?.name);
              });
              // A late result answers `timeout` (issue 9.10): which calls lose that race on a loaded
              // machine differs between two runs, so those calls are left out of the comparison.
              const late = new Set([...lateTimeouts(streamed, fromStream.messages), ...lateTimeouts(batched, messages)]);
              const keep = (list: readonly ToolMessage[]) => list.filter((_, i) => !late.has(i));
              expect(keep(messages), "the batch's messages are the stream's").toStrictEqual(keep(fromStream.messages));
              if (late.size > 0) {
                // the halt may belong to a call that lost the race in one run only
              } else if (fromStream.halt === undefined) expect("halt" in result && result.halt !== undefined, "no halt when no call halted").toBe(false);
              else expect(result.halt, "the lowest-index halt wins").toEqual(fromStream.halt);

              expect(batched.unhandled, "unhandled rejections").toEqual([]);
              expectNothingLeft(batched, "when runToolCalls resolves", timersAtEnd, listenersAtEnd);
              expectNothingLeft(batched, "once every handler settled");
              expectHandlerBounds(batched);
            });
          }),
          { numRuns: RUNS.batch },
        );
      },
      TIMEOUT,
    );
  });

  describe("a batch cut short", () => {
    /**
     * Where to cut: after the k-th event, or inside the m-th handler to start, with k (or m) spread
     * over 1..3n+1 so some runs are never cut. Drawn as a fraction (no `chain`) so it shrinks.
     */
    const cutArb = (action: Cut["action"]): fc.Arbitrary<readonly [BatchSpec, Cut]> =>
      fc
        .tuple(batchArb, fc.constantFrom<Cut["trigger"]>("event", "handler"), fc.integer({ min: 0, max: 999 }))
        .map(([spec, trigger, permille]) => [spec, { trigger, action, after: 1 + Math.floor((permille * (3 * spec.behaviours.length + 1)) / 1000) }]);

    it(
      "unsubscribing after any number of events, or from inside a handler, aborts every running handler's ctx.signal, starts no handler, and leaves no timer or listener behind",
      async () => {
        await fc.assert(
          fc.asyncProperty(cutArb("unsubscribe"), async ([spec, cut]) => {
            const h = new Harness(spec);
            await recordingUnhandled([h], async () => {
              const run = await observeStream(h, cut);
              const startsAtCut = h.handlerStarts;
              await settleAll(h);
              expect(h.unhandled, "unhandled rejections").toEqual([]);
              if (run.cutAt === undefined) {
                expectCompletedStream(h, run);
                return;
              }
              expect(run.end, "the consumer's side completes (takeUntil)").toStrictEqual({ kind: "complete" });
              expectNothingLeft(h, "right after unsubscribing", run.timersAtEnd, run.listenersAtEnd);
              expect(h.handlerStarts, "no handler starts once unsubscribed").toBe(startsAtCut);
              expectCutRespected(h, run.cutAt);
              expectEventShape(h, run.events, false);
              expectHandlerBounds(h);
              expectNothingLeft(h, "once every handler settled");
            });
          }),
          { numRuns: RUNS.unsubscribe },
        );
      },
      TIMEOUT,
    );

    /** runToolCalls shows no events, so it is only ever cut from inside a handler. */
    const abortArb = fc
      .tuple(cutArb("abort"), fc.constantFrom("stream" as const, "runToolCalls" as const))
      .map(([[spec, cut], via]) => [spec, via === "stream" ? cut : { ...cut, trigger: "handler" as const }, via] as const);

    it(
      "aborting opts.signal after any number of events, or from inside a handler, errors the stream (or rejects runToolCalls) with its reason, aborts every running handler's ctx.signal, starts no handler, and leaves no timer or listener behind",
      async () => {
        await fc.assert(
          fc.asyncProperty(abortArb, async ([spec, cut, via]) => {
            const h = new Harness(spec);
            await recordingUnhandled([h], async () => {
              let run: StreamRun;
              if (via === "stream") {
                run = await observeStream(h, cut);
              } else {
                let cutAt: number | undefined;
                h.onHandlerStart = (count) => {
                  if (count === cut.after && cutAt === undefined) {
                    cutAt = h.tick();
                    h.controller.abort(h.abortReason);
                  }
                };
                const end = await withWatchdog(
                  "runToolCalls",
                  runToolCalls(h.calls, TOOLS, h.options()).then(
                    (): End => ({ kind: "complete" }),
                    (e: unknown): End => ({ kind: "error", error: e }),
                  ),
                );
                run = { events: [], end, cutAt, timersAtEnd: h.scheduler.live, listenersAtEnd: h.listeners.live };
              }
              const startsAtCut = h.handlerStarts;
              await settleAll(h);
              expect(h.unhandled, "unhandled rejections").toEqual([]);
              if (run.cutAt === undefined) {
                if (via === "stream") expectCompletedStream(h, run);
                else expect(run.end, "runToolCalls resolves").toStrictEqual({ kind: "complete" });
                return;
              }
              expect(run.end.kind, `the ${via === "stream" ? "stream errors" : "promise rejects"}`).toBe("error");
              if (run.end.kind === "error") expect(run.end.error, "... with the signal's reason").toBe(h.abortReason);
              expectNothingLeft(h, "right after the abort", run.timersAtEnd, run.listenersAtEnd);
              expect(h.handlerStarts, "no handler starts once aborted").toBe(startsAtCut);
              expectCutRespected(h, run.cutAt);
              expectEventShape(h, run.events, false);
              expectHandlerBounds(h);
              expectNothingLeft(h, "once every handler settled");
            });
          }),
          { numRuns: RUNS.abort },
        );
      },
      TIMEOUT,
    );
  });
});
