/**
 * `jsonEncoder.encode` skips its scan for stack frames where the JSON text cannot hold a string
 * (issue 46: the scan was a builtin call on every result). The oracle is the encoder as it was
 * before that shortcut, which scanned every text: on any value, hostile ones included, the two
 * give the same text or throw the same error.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonEncoder } from "../../src/index.js";
import { withoutFrames } from "../../src/util/safe.js";

const FRAME_MARK = "    at ";

/** The encoder before the shortcut (1ecf508), nesting bound aside: every text scanned. */
function scannedEncode(value: unknown): string {
  if (typeof value === "string") return value.includes(FRAME_MARK) ? withoutFrames(value) : value;
  const text: string | undefined = JSON.stringify(value);
  if (text === undefined) throw new TypeError(`Cannot encode ${typeof value} as JSON`);
  if (text.includes(FRAME_MARK)) return JSON.stringify(value, withoutTraces) as string;
  return text;
}

function withoutTraces(this: unknown, key: string, value: unknown): unknown {
  if (typeof value !== "string") return value;
  const text = withoutFrames(value);
  return key === "stack" && text !== value ? undefined : text;
}

/** Either the text or the thrown error's class and message: what a caller of `encode` sees. */
function outcome(encode: (value: unknown) => string, value: unknown): unknown {
  try {
    return { text: encode(value) };
  } catch (thrown) {
    return { threw: (thrown as Error).constructor.name, message: (thrown as Error).message };
  }
}

const trace = "Error: db down\n    at connect (/srv/app/db.js:3:9)\n    at async main (/srv/app/index.js:10:2)";
const frameText = fc.constantFrom(trace, "    at x (/a.js:1:2)", "    at ", "ok    at ", "    at <anonymous>", "a    at b", "standup@09:30:00");
const text = fc.oneof(
  fc.string(),
  frameText,
  fc.tuple(fc.string(), frameText, fc.string()).map(([a, b, c]) => a + b + c),
);

/** An Error with its stack (non-enumerable, as V8 makes it) or with the stack copied onto a field. */
const anError = fc.tuple(text, fc.boolean()).map(([message, spread]) => {
  const e = new Error(message);
  return spread ? { ...e, stack: e.stack, message: e.message } : e;
});

/** Leaves: every primitive JSON has or lacks, Errors, and `toJSON`s answering any of them. */
const leaf = fc.oneof(
  text,
  fc.double(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.bigInt(),
  fc.constant(Symbol("s")),
  fc.constant(() => 1),
  anError,
  fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined)).map((v) => ({ toJSON: () => v })),
);

const value = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: "small", withCrossShrink: true }, leaf, tie("array"), tie("object")),
  array: fc.array(tie("node"), { maxLength: 4 }),
  object: fc.dictionary(fc.oneof(fc.string(), frameText), tie("node"), { maxKeys: 4 }),
})).node;

/** Sometimes a cycle: the value put inside itself. */
const maybeCyclic = fc.tuple(fc.oneof(value, leaf), fc.boolean()).map(([v, cyclic]) => {
  if (cyclic && typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Error)) (v as Record<string, unknown>).self = v;
  return v;
});

describe("jsonEncoder.encode's frame scan", () => {
  it("gives what the encoder that scanned every text gave, on any value", () => {
    fc.assert(
      fc.property(maybeCyclic, (v) => {
        expect(outcome(jsonEncoder.encode, v)).toEqual(outcome(scannedEncode, v));
      }),
      { numRuns: 500 },
    );
  });

  describe("when a primitive's `toJSON` answers a trace", () => {
    it("still cuts its frames: a bigint's text comes from its toJSON, and is a string", () => {
      const proto = BigInt.prototype as unknown as { toJSON?: () => unknown };
      proto.toJSON = () => trace;
      try {
        expect(jsonEncoder.encode(10n)).toBe('"Error: db down"');
        expect(jsonEncoder.encode(10n)).toBe(scannedEncode(10n));
      } finally {
        delete proto.toJSON;
      }
    });

    it("ignores a number's: JSON never asks a number for its toJSON", () => {
      const proto = Number.prototype as unknown as { toJSON?: () => unknown };
      proto.toJSON = () => trace;
      try {
        expect(jsonEncoder.encode(42)).toBe("42");
      } finally {
        delete proto.toJSON;
      }
    });
  });
});
