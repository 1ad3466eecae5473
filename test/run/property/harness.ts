/** The harness of the runner's property tests: one per run, handed to handlers as `ctx.context`. */
import {
  askUser,
  error,
  halt,
  ok,
  type HandlerResult,
  type HandlerReturn,
  type OnToolError,
  type ToolCall,
  type ToolErrorDecision,
} from "../../../src/index.js";
import type { RunOptions } from "../../../src/run/options/run-options.js";
import type { HandlerContext } from "../../../src/tool/handler-context.js";

import type { Timing, Decision, BatchSpec } from "./arbitraries.js";
import { CountingScheduler, ListenerCount, type HandlerRecord, type PolicyCall } from "./instruments.js";

export class Harness {
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
    const run = (): HandlerResult => {
      let returned: HandlerResult;
      try {
        returned = answer();
      } catch (thrown) {
        settle(undefined);
        throw thrown;
      }
      settle(returned);
      return returned;
    };
    if (timing === "sync") return run();
    return (async () => {
      for (let i = 0; i < timing; i++) await null;
      return run();
    })();
  }
}

/** Marks the "continue" of a string policy: the error text, not a replacement value. */
export const CONTINUE_AS_ERROR = Symbol("continue as error");
