import { jsonEncoder } from "../../tool/encoder.js";
import { error, type ErrorResult } from "../../tool/results.js";
import { isError } from "../../util/safe.js";
import type { CallIdentity as FullIdentity } from "../../tool/tool-call.js";

/** Whom an error is about: the call's id and tool name as they were when it started. */
type CallIdentity = Pick<FullIdentity, "toolCallId" | "toolName">;
import { ToolError } from "../../tool/tool-error.js";

/** Which deadline fired, as `metadata.deadline` of the `timeout` error says. */
export type Deadline = "toolTimeout" | "toolIdleTimeout" | "totalTimeout";

/** What a deadline error reports about the call's deadlines. */
export interface DeadlineFacts {
  readonly toolTimeout: number;
  readonly toolIdleTimeout: number;
  readonly totalTimeout: number;
}

/**
 * The `timeout` error of a deadline that passed. `settled` says whether the handler had finished
 * (too late) or was still running when the runner stopped waiting.
 */
export function deadlineError(call: CallIdentity, fired: Deadline, facts: DeadlineFacts, settled: boolean): ToolError {
  const metadata: Record<string, unknown> = { toolTimeout: facts.toolTimeout, deadline: fired, settled };
  if (fired === "toolIdleTimeout") metadata.toolIdleTimeout = facts.toolIdleTimeout;
  else if (fired === "totalTimeout") metadata.totalTimeout = facts.totalTimeout;
  const message = deadlineMessage(call, fired, facts);
  return stackless(() => new ToolError("timeout", { message, toolName: call.toolName, toolCallId: call.toolCallId, metadata }));
}

function deadlineMessage(call: CallIdentity, fired: Deadline, facts: DeadlineFacts): string {
  if (fired === "toolTimeout") return `tool ${call.toolName} timed out after ${facts.toolTimeout} ms`;
  if (fired === "toolIdleTimeout") return `tool ${call.toolName} timed out: no progress reported for ${facts.toolIdleTimeout} ms`;
  return `tool ${call.toolName} timed out: its retries did not finish within ${facts.totalTimeout} ms`;
}

/**
 * A deadline's `timeout` before anyone has read it. An `Error` costs most of a timeout (V8 builds
 * one in C++, even without a stack), and the 1,000th of 1,000 deadlines passing at once waits for
 * the 999 errors before it; yet with the default policy and encoder nothing reads the error when
 * the call is answered: the model's text depends only on the message. So the error is built the
 * first time something reads it (the completed event's `result.reason`, the handler's
 * `ctx.signal.reason`, a policy function, a custom encoder), once, and every reader gets that one.
 * It holds the few facts the error is made of, not the call: an event holding it must not keep
 * the call's whole state alive.
 */
export class DeadlineTimeout implements DeadlineFacts {
  readonly toolName: string;
  readonly toolCallId: string;
  readonly toolTimeout: number;
  readonly toolIdleTimeout: number;
  readonly totalTimeout: number;
  #error: ToolError | undefined;

  /** `limits` are the call's own (not copied into a facts object first: one allocation less per expiry). */
  constructor(
    call: CallIdentity,
    readonly fired: Deadline,
    limits: { readonly timeout: number; readonly idleTimeout: number },
    totalTimeout: number,
    readonly settled: boolean,
  ) {
    this.toolName = call.toolName;
    this.toolCallId = call.toolCallId;
    this.toolTimeout = limits.timeout;
    this.toolIdleTimeout = limits.idleTimeout;
    this.totalTimeout = totalTimeout;
  }

  /** The error, built on first read. */
  get error(): ToolError {
    this.#error ??= deadlineError(this, this.fired, this, this.settled);
    return this.#error;
  }

  /**
   * What `jsonEncoder.encodeError(this.error)` returns, without building the error when the
   * timeout encoded just before has the same message (the deadlines of one wake, of one tool,
   * share it): the text of a `timeout` without a cause depends on its message alone.
   */
  get jsonText(): string {
    if (last === undefined || !sameMessage(this, last)) {
      lastText = jsonEncoder.encodeError(this.error);
      last = this;
    }
    return lastText;
  }
}

let last: DeadlineTimeout | undefined;
let lastText = "";

/** Whether `a` and `b` have the same message: what {@link deadlineMessage} reads of them is the same. */
function sameMessage(a: DeadlineTimeout, b: DeadlineTimeout): boolean {
  if (a.toolName !== b.toolName || a.fired !== b.fired) return false;
  if (a.fired === "toolTimeout") return a.toolTimeout === b.toolTimeout;
  if (a.fired === "toolIdleTimeout") return a.toolIdleTimeout === b.toolIdleTimeout;
  return a.totalTimeout === b.totalTimeout;
}

/**
 * `{ type: "error", reason }` for a timeout whose `reason` is built on first read. The field is
 * an own, enumerable accessor that turns itself into the plain data field it would have been, so
 * `Object.keys`, spreads, `JSON.stringify`, `structuredClone` and deep equality see the same
 * object; only `Object.getOwnPropertyDescriptor` before the first read tells the difference.
 *
 * The accessor's two functions are shared by every such result and find their `DeadlineTimeout`
 * in a private field stamped on the plain object ({@link Stamped}): an object literal with a
 * getter and a setter made two closures per expiry and left the object in dictionary mode
 * (about 480 B and a runtime call each); this one keeps one shared hidden class, and a private
 * field is no property: no key, symbol or descriptor shows it.
 */
export function timeoutResult(timeout: DeadlineTimeout): ErrorResult<ToolError> {
  const result = { type: "error" } as ErrorResult<ToolError>;
  new Stamped(result, timeout);
  Reflect.defineProperty(result, "reason", LAZY_REASON);
  return result;
}

/**
 * Holds a timeout result's `DeadlineTimeout` as a private field of the result itself: invisible
 * to reflection, one shared shape. Its base returns the object it is given, so that `this` here is
 * that object and the field goes on it.
 */
class Stamped extends class {
  constructor(target: object) {
    // biome-ignore lint/correctness/noConstructorReturn: the base of Stamped, whose `this` must be `target`
    return target;
  }
} {
  readonly #timeout: DeadlineTimeout;

  constructor(target: object, timeout: DeadlineTimeout) {
    super(target);
    this.#timeout = timeout;
  }

  /** The result's `DeadlineTimeout`; a `TypeError` for an object that is not a timeout result (the accessor called on another). */
  static timeoutOf(target: object): DeadlineTimeout {
    return (target as Stamped).#timeout;
  }
}

/** Turn a timeout result's `reason` into a plain data field holding `value`; false on a frozen result. */
function settleReason(result: object, value: unknown): boolean {
  return Reflect.defineProperty(result, "reason", { value, writable: true, enumerable: true, configurable: true });
}

const LAZY_REASON: PropertyDescriptor = {
  get(this: object): ToolError {
    const error = Stamped.timeoutOf(this).error;
    // Fails only on a frozen result: it then keeps answering with the same error.
    settleReason(this, error);
    return error;
  },
  set(this: object, value: unknown): void {
    if (!settleReason(this, value)) throw new TypeError("Cannot assign to read only property 'reason' of object");
  },
  enumerable: true,
  configurable: true,
};

/** The `timeout` of a call whose asynchronous argument validation outlived `toolTimeout`. */
export function validationTimeout(call: CallIdentity, toolTimeout: number): ToolError {
  return stackless(
    () =>
      new ToolError("timeout", {
        message: `the arguments of tool ${call.toolName} were still being validated after ${toolTimeout} ms`,
        toolName: call.toolName,
        toolCallId: call.toolCallId,
        metadata: { toolTimeout, deadline: "toolTimeout", settled: false },
      }),
  );
}

/** The executor itself failed: `handler_exit`, since a handler's own throws were its to convert. */
export function exitResult(call: CallIdentity, thrown: unknown): unknown {
  const cause = isError(thrown) ? thrown : { thrown };
  return error(new ToolError("handler_exit", { toolName: call.toolName, toolCallId: call.toolCallId, cause }));
}

type ErrorWithLimit = { stackTraceLimit?: number };

/**
 * Build an error without capturing a stack: a deadline's stack is the timer callback's, useless
 * to anyone, and capturing it was half of a timeout's cost (issue 14). `stackTraceLimit` is V8's
 * (and SpiderMonkey's); elsewhere setting it does nothing.
 */
function stackless<E>(make: () => E): E {
  const limit = (Error as ErrorWithLimit).stackTraceLimit;
  (Error as ErrorWithLimit).stackTraceLimit = 0;
  try {
    return make();
  } finally {
    if (limit === undefined) delete (Error as ErrorWithLimit).stackTraceLimit;
    else (Error as ErrorWithLimit).stackTraceLimit = limit;
  }
}
