/**
 * The runner's promise under hostile but legal JavaScript: whatever handlers, executors,
 * encoders and policies throw or return (throwing getters, revoked Proxies, hostile thenables,
 * cycles, huge values, errors nested with their stacks), every call is answered exactly once,
 * the batch is in input order, nothing is left as an unhandled rejection, and no content
 * carries a stack frame or a file path.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  defaultExecutor,
  defineTool,
  error,
  jsonEncoder,
  ok,
  runToolCalls,
  type HandlerResult,
  type OnToolError,
  type ToolExecutor,
  type ToolResultEncoder,
} from "../../src/index.js";
import type { RunOptions } from "../../src/run/options/run-options.js";
import { anyArgs } from "../support/helpers.js";

const traced = new Error("db down"); // its stack holds this file's path

/** Each kind builds a fresh value: revocation and cycles must not leak between runs. */
const HOSTILE: Record<string, () => unknown> = {
  throwingGetter: () => ({
    get message() {
      throw traced;
    },
    get value() {
      throw traced;
    },
    get type() {
      throw traced;
    },
  }),
  errorWithThrowingMessage: () =>
    Object.defineProperty(new Error("x"), "message", {
      get() {
        throw traced;
      },
    }),
  revokedProxy: () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  },
  throwingTraps: () =>
    new Proxy(
      {},
      {
        get() {
          throw traced;
        },
        has() {
          throw traced;
        },
        ownKeys() {
          throw traced;
        },
        getPrototypeOf() {
          throw traced;
        },
      },
    ),
  thenThrows: () => ({
    // biome-ignore lint/suspicious/noThenProperty: hostile thenables are the values under test
    then() {
      throw traced;
    },
  }),
  thenGetterThrows: () => ({
    // biome-ignore lint/suspicious/noThenProperty: hostile thenables are the values under test
    get then() {
      throw traced;
    },
  }),
  thenCallsBoth: () => ({
    // biome-ignore lint/suspicious/noThenProperty: hostile thenables are the values under test
    then(res: (v: unknown) => void, rej: (e: unknown) => void) {
      res(ok(1));
      rej(traced);
      res(ok(2));
    },
  }),
  cyclic: () => {
    const o: Record<string, unknown> = { name: "cycle" };
    o.self = o;
    return o;
  },
  huge: () => ({ text: "x".repeat(200_000), list: Array.from({ length: 5_000 }, (_, i) => i) }),
  deep: () => {
    let v: unknown = { stack: traced.stack };
    for (let i = 0; i < 50; i++) v = { v };
    return v;
  },
  plainWithStack: () => ({ name: "Error", message: "db down", stack: traced.stack }),
  toJSONWithStack: () => Object.assign(new Error("Request failed"), { toJSON: () => ({ message: "Request failed", stack: traced.stack }) }),
  messageWithStack: () => new Error(`wrapped: ${traced.stack}`),
  nestedError: () => ({ errors: [traced, { cause: traced }], detail: { trace: traced.stack } }),
  bigint: () => 10n,
  symbol: () => Symbol("s"),
  undefined: () => undefined,
  plainString: () => "sunny",
};
const hostile = fc.constantFrom(...Object.keys(HOSTILE)).map((kind) => ({ kind, make: HOSTILE[kind] as () => unknown }));

const handlerPlan = fc.record({
  how: fc.constantFrom("return", "throw", "ok", "error", "resolve", "reject", "fine"),
  async: fc.boolean(),
  value: hostile,
});
type HandlerPlan = typeof handlerPlan extends fc.Arbitrary<infer T> ? T : never;

function handlerFor(plan: HandlerPlan): () => unknown {
  const settle = (v: unknown) => (plan.async ? Promise.resolve(v) : v);
  return () => {
    const v = plan.value.make();
    switch (plan.how) {
      case "return":
        return settle(v);
      case "throw":
        if (plan.async) return Promise.reject(v);
        throw v;
      case "ok":
        return settle(ok(v));
      case "error":
        return settle(error(v));
      case "resolve":
        return Promise.resolve(v);
      case "reject":
        return Promise.reject(v);
      default:
        return settle(ok("fine"));
    }
  };
}

const executorPlan = fc.option(fc.record({ how: fc.constantFrom("throw", "return", "reject", "delegate"), value: hostile }), { nil: undefined });
function executorFor(plan: NonNullable<typeof executorPlan extends fc.Arbitrary<infer T> ? T : never>): ToolExecutor {
  return {
    execute(tool, args, ctx) {
      const v = plan.value.make();
      if (plan.how === "throw") throw v;
      if (plan.how === "return") return v as HandlerResult;
      if (plan.how === "reject") return Promise.reject(v);
      return defaultExecutor.execute(tool, args, ctx);
    },
  };
}

const encoderPlan = fc.option(
  fc.record({ encode: fc.constantFrom("throw", "return", "json"), encodeError: fc.constantFrom("throw", "return", "json"), value: hostile }),
  { nil: undefined },
);
function encoderFor(plan: NonNullable<typeof encoderPlan extends fc.Arbitrary<infer T> ? T : never>): ToolResultEncoder {
  const act = (how: string, json: (x: unknown) => string) => (x: unknown) => {
    if (how === "throw") throw plan.value.make();
    if (how === "return") return plan.value.make() as string;
    return json(x);
  };
  return { encode: act(plan.encode, jsonEncoder.encode), encodeError: act(plan.encodeError, jsonEncoder.encodeError) };
}

const policyPlan = fc.oneof(
  fc.constantFrom("continue" as const, "halt" as const),
  fc.record({ how: fc.constantFrom("throw", "return", "continue"), value: hostile }),
);
function policyFor(plan: typeof policyPlan extends fc.Arbitrary<infer T> ? T : never): OnToolError {
  if (typeof plan === "string") return plan;
  return () => {
    const v = plan.value.make();
    if (plan.how === "throw") throw v;
    if (plan.how === "return") return v as "halt";
    return { continue: v };
  };
}

const scenario = fc.record({
  handlers: fc.array(handlerPlan, { minLength: 1, maxLength: 6 }),
  executor: executorPlan,
  encoder: encoderPlan,
  policy: policyPlan,
  maxConcurrency: fc.integer({ min: 1, max: 4 }),
});

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeAll(() => process.on("unhandledRejection", onUnhandled));
afterAll(() => process.off("unhandledRejection", onUnhandled));

/** A stack frame line, or a source location such as `file.ts:12` or `file:///…`. */
const TRACE = /\n\s+at\s|^\s+at\s|[\w/-]\.(?:ts|js|mjs|cjs):\d+|file:\/\//m;

describe("runToolCalls under hostile user code (property)", () => {
  it("answers every call exactly once, in input order, with no unhandled rejection and no stack in any content", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        unhandled.length = 0;
        const tools = s.handlers.map((plan, i) =>
          defineTool({ name: `t${i}`, description: "", schema: anyArgs, handler: handlerFor(plan) as () => HandlerResult }),
        );
        const calls = s.handlers.map((_, i) => ({ id: `c${i}`, name: `t${i}`, arguments: {} }));
        const options: RunOptions = { onToolError: policyFor(s.policy), maxConcurrency: s.maxConcurrency };
        if (s.executor) options.toolExecutor = executorFor(s.executor);
        if (s.encoder) options.toolResultEncoder = encoderFor(s.encoder);

        const { messages } = await runToolCalls(calls, tools, options);
        await new Promise((resolve) => setTimeout(resolve, 0));

        expect(messages.map((m) => m.toolCallId)).toEqual(calls.map((c) => c.id));
        for (const m of messages) {
          expect(typeof m.content).toBe("string");
          expect(m.content).not.toMatch(TRACE);
        }
        expect(unhandled).toEqual([]);
      }),
      { numRuns: Number(process.env.HOSTILE_RUNS ?? 300) },
    );
  }, 120_000);
});
