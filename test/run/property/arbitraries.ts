/** What a random batch of the runner's property tests (test/run/property/) is made of, and its generators. */
import fc from "fast-check";
import { RESERVED_HALT_REASONS, type ReservedHaltReason } from "../../../src/index.js";

// ---------------------------------------------------------------------------------------------
// What a batch is made of
// ---------------------------------------------------------------------------------------------

/** `"sync"`, or the number of microtask hops before an async handler settles. */
export type Timing = "sync" | number;

export type Behaviour =
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

export type Kind = Behaviour["kind"];
export const KINDS: readonly Kind[] = ["ok", "error", "throw", "invalid", "askUser", "halt", "reservedHalt", "badArgs", "slow", "never", "late"];
export const TIMED_OUT_KINDS: ReadonlySet<Kind> = new Set<Kind>(["slow", "never", "late"]);

export type Decision =
  | { readonly kind: "continue"; readonly value: unknown }
  | { readonly kind: "halt" }
  | { readonly kind: "throw"; readonly thrown: unknown }
  | { readonly kind: "garbage"; readonly label: string; readonly make: () => unknown };

/** `default` leaves `onToolError` out; `fn` answers `decisions[index % length]` for call `index`. */
export type PolicySpec = { readonly kind: "default" | "continue" | "halt" } | { readonly kind: "fn"; readonly decisions: readonly Decision[] };

export interface BatchSpec {
  readonly behaviours: readonly Behaviour[];
  readonly policy: PolicySpec;
  readonly maxConcurrency: number;
  readonly toolTimeout: number;
  readonly idPrefix: string;
}

// ---------------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------------

export const RESERVED: ReadonlySet<string> = new Set(RESERVED_HALT_REASONS);

/** Fresh object per generated value, so identity checks mean something. */
export const fresh = <T>(make: () => T): fc.Arbitrary<T> => fc.constant(null).map(make);

export const encodableArb: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 2 });
/** Values `jsonEncoder.encode` rejects: the runner must answer `encoding_failed`. */
export const unencodableArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(undefined),
  fc.bigInt(),
  fresh(() => () => "a function"),
);
export const valueArb: fc.Arbitrary<unknown> = fc.oneof({ arbitrary: encodableArb, weight: 5 }, { arbitrary: unencodableArb, weight: 1 });

export const timingArb: fc.Arbitrary<Timing> = fc.oneof(fc.constant<Timing>("sync"), fc.integer({ min: 0, max: 3 }));

export const errorReasonArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.string(),
  fc.string().map((m) => new Error(m)),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
  fc.integer(),
  fc.constant(null),
  fc.constant(undefined),
);

/** Illegal handler returns (§2). */
export const invalidReturnArb: fc.Arbitrary<unknown> = fc.oneof(
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

export const behaviourArb: fc.Arbitrary<Behaviour> = fc.oneof(
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
export const GARBAGE: readonly (readonly [string, () => unknown])[] = [
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

export const decisionArb: fc.Arbitrary<Decision> = fc.oneof(
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

export const policyArb: fc.Arbitrary<PolicySpec> = fc.oneof(
  fc.constantFrom<PolicySpec>({ kind: "default" }, { kind: "continue" }, { kind: "halt" }),
  fc.record({ kind: fc.constant("fn" as const), decisions: fc.array(decisionArb, { minLength: 1, maxLength: 6 }) }),
);

export const batchArb: fc.Arbitrary<BatchSpec> = fc.record({
  behaviours: fc.array(behaviourArb, { minLength: 1, maxLength: 40 }),
  policy: policyArb,
  maxConcurrency: fc.integer({ min: 1, max: 8 }),
  toolTimeout: fc.integer({ min: 5, max: 25 }),
  idPrefix: fc.stringMatching(/^[a-z]{1,4}$/),
});
