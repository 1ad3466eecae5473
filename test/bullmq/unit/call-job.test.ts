import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { error, ok, ToolError, type HandlerResult } from "../../../src/index.js";
import { callJobData, jobReturnOf, readCallJob, readJobReturn } from "../../../src/bullmq/call-job.js";
import { idempotencyKeyOf, jobIdOf, jobIdPartsOf } from "../../../src/bullmq/job-id.js";
import { CALL_JOB } from "../../../src/bullmq/protocol.js";
import { decodeJobResult, encodeJobResult } from "../../../src/bullmq/result-codec.js";

// No Redis needed: what a call job carries, as the producer writes it and a worker reads it.
const noIds = { sessionId: undefined, requestId: undefined };
const overJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe("callJobData", () => {
  it("carries only the tool's name and the model's arguments for a call at every default", () => {
    const call = { id: "call_1", name: "weather", arguments: { city: "Oslo" } };
    expect(callJobData(call, call.arguments, noIds, Infinity, 5_000, [])).toEqual({ v: 2, name: "weather", args: { city: "Oslo" } });
  });

  it("carries what differs from the defaults: raw text, the attempt's own arguments, ids, deadline, heartbeat (null for none), lanes", () => {
    const call = { id: "c", name: "t", arguments: { a: 1 }, rawArguments: '{"a":1}' };
    const lanes = [{ lane: "global", limit: 3 }];
    expect(callJobData(call, { a: 2 }, { sessionId: "s", requestId: "r" }, 99, Infinity, lanes)).toEqual({
      v: 2,
      name: "t",
      args: { a: 1 },
      raw: '{"a":1}',
      input: { a: 2 },
      sessionId: "s",
      requestId: "r",
      deadline: 99,
      heartbeat: null,
      lanes,
    });
    expect(callJobData(call, call.arguments, noIds, Infinity, 700, [])).toMatchObject({ heartbeat: 700 });
  });
});

describe("readCallJob", () => {
  it("gives back the call a producer sent, with its id, idempotency key and attempt read from the job's id", () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.string({ minLength: 1 }),
        fc.integer({ min: 1, max: 1_000 }),
        fc.option(fc.string(), { nil: undefined }),
        fc.constantFrom(Infinity, 5_000, 300),
        fc.boolean(),
        (key, callId, attempt, raw, heartbeat, repaired) => {
          const call = { id: callId, name: "t", arguments: { x: [1] }, ...(raw === undefined ? {} : { rawArguments: raw }) };
          const input = repaired ? { x: [2] } : call.arguments;
          const jobId = jobIdOf(key, callId, attempt);
          const read = readCallJob(CALL_JOB, jobId, overJson(callJobData(call, input, noIds, Infinity, heartbeat, [])));
          expect(read).toEqual({
            v: 2,
            call,
            input,
            idempotencyKey: idempotencyKeyOf(key, callId),
            attempt,
            sessionId: undefined,
            requestId: undefined,
            deadline: undefined,
            heartbeat: heartbeat === Infinity ? undefined : heartbeat,
            lanes: [],
          });
          expect(jobIdPartsOf(jobId)).toEqual({ toolCallId: callId, idempotencyKey: idempotencyKeyOf(key, callId), attempt });
        },
      ),
    );
  });

  it("still reads a version-1 job, as producers before version 2 send it, and answers it in version 1", () => {
    const v1 = { v: 1, call: { id: "c", name: "t", arguments: { a: 1 } }, arguments: { a: 2 }, idempotencyKey: "k", attempt: 2, heartbeat: 900 };
    expect(readCallJob(CALL_JOB, "anything", v1)).toEqual({
      v: 1,
      call: v1.call,
      input: { a: 2 },
      idempotencyKey: "k",
      attempt: 2,
      sessionId: undefined,
      requestId: undefined,
      deadline: undefined,
      heartbeat: 900,
      lanes: [],
    });
    expect(jobReturnOf({ result: { type: "ok", value: 1 } }, 1)).toEqual({ v: 1, result: { type: "ok", value: 1 } });
    expect(jobReturnOf({ cancelled: "stop", started: true }, 1)).toEqual({ v: 1, cancelled: "stop", started: true });
  });

  it("refuses a job of another protocol version or name, and an id jobIdOf did not write, saying what it got", () => {
    const mismatch = "this worker and the producer are of versions that do not match";
    expect(() => readCallJob(CALL_JOB, "k|c", { v: 3, name: "t", args: {} })).toThrow(
      `not a toolrx call job of protocol 1 or 2 (name toolrx.call, protocol 3): ${mismatch}`,
    );
    expect(() => readCallJob(CALL_JOB, "k|c", { name: "t", args: {} })).toThrow("(name toolrx.call, protocol undefined)");
    expect(() => readCallJob("other", "k|c", { v: 2, name: "t", args: {} })).toThrow("(name other, protocol 2)");
    expect(() => readCallJob(CALL_JOB, "k|c", { v: 2, name: "t" })).toThrow("it has no tool name and arguments");
    for (const id of ["plain", "k|c|1", "k|c|x", "k|c|2|3", "k|%E0"]) {
      expect(() => readCallJob(CALL_JOB, id, { v: 2, name: "t", args: {} })).toThrow(
        `Expected a call job's id as \`jobIdOf\` writes it (<key>|<call id>[|<attempt>]), got ${JSON.stringify(id)}`,
      );
    }
  });
});

/** How ids were read before they were read by offsets: split on `|`, each part decoded. The reference the reading is held to. */
function partsBySplit(jobId: string): ReturnType<typeof jobIdPartsOf> | "refused" {
  const parts = jobId.split("|");
  const [key, call, nth] = parts;
  const attempt = nth === undefined ? 1 : Number(nth);
  const written = parts.length >= 2 && parts.length <= 3 && key !== undefined && call !== undefined && Number.isSafeInteger(attempt);
  if (!written || (nth !== undefined && !(attempt >= 2 && String(attempt) === nth))) return "refused";
  try {
    return { toolCallId: decodeURIComponent(call), idempotencyKey: `toolrx:${key}|${call}`, attempt };
  } catch {
    return "refused";
  }
}

describe("jobIdPartsOf", () => {
  it("reads any string as splitting it on `|` and decoding each part would: the same parts, the same refusals", () => {
    const piece = fc.constantFrom("|", "%", "%7C", "%E0", "%ZZ", "2", "02", "1", "3.0", "-4", "a", "k", "", "9007199254740993");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
        const id = pieces.join("");
        const expected = partsBySplit(id);
        if (expected === "refused") expect(() => jobIdPartsOf(id)).toThrow(TypeError);
        else expect(jobIdPartsOf(id)).toEqual(expected);
      }),
    );
  });
});

describe("jobReturnOf and readJobReturn", () => {
  it("send a plain ok result as its value alone, and every result back as the codec decodes it", () => {
    expect(jobReturnOf({ result: encodeJobResult(ok({ a: 1 }), "t", "c") }, 2)).toEqual({ v: 2, ok: { a: 1 } });
    const tool = new ToolError("timeout", { toolName: "t", toolCallId: "c", message: "slow" });
    for (const result of [
      ok({ a: [1, "x", null] }),
      ok(undefined),
      ok(new Date(0)),
      ok("text", { parts: [{ type: "text", text: "hi" }] }),
      error(tool),
      { type: "halt", reason: "done", result: 1 },
    ] as HandlerResult[]) {
      const sent = overJson(jobReturnOf({ result: encodeJobResult(result, "t", "c") }, 2));
      const read = readJobReturn(sent);
      expect("result" in read && decodeJobResult(read.result)).toEqual(decodeJobResult(overJson(encodeJobResult(result, "t", "c"))));
    }
    expect(readJobReturn(jobReturnOf({ cancelled: "stop", started: false }, 2))).toEqual({ cancelled: "stop", started: false });
  });

  it("read a version-1 return (a job an older producer sent, re-attached to) and refuse anything else", () => {
    expect(readJobReturn({ v: 1, result: { type: "ok", value: 3 } })).toEqual({ result: { type: "ok", value: 3 } });
    expect(readJobReturn({ v: 1, cancelled: "x", started: true })).toEqual({ cancelled: "x", started: true });
    for (const value of [{ v: 1, ok: 3 }, { v: 3, ok: 3 }, 3, null]) {
      expect(() => readJobReturn(value)).toThrow(new TypeError(`unknown job return ${JSON.stringify(value)}`));
    }
  });
});
