import type { HandlerContext, ToolCall } from "../index.js";
import type { WireResult } from "../node/index.js";
import { jobIdPartsOf } from "./job-id.js";
import type { LaneLimit } from "./lanes.js";
import { CALL_JOB, DEFAULT_HEARTBEAT, type CallJobData, type CallJobDataV1, type CallJobReturn, type CallJobReturnV1 } from "./protocol.js";

/** One attempt of one call as a worker runs it, whichever protocol version its job came in. */
export interface RemoteCall {
  /** The version the job came in: its answer goes back in the same. */
  readonly v: 1 | 2;
  /** The call as the model made it: the handler's `ctx.toolCall`. */
  readonly call: ToolCall;
  /** What the worker validates: the call's arguments, or the attempt's own when a repair or a hook changed them. */
  readonly input: Record<string, unknown>;
  readonly idempotencyKey: string;
  readonly attempt: number;
  readonly sessionId: string | undefined;
  readonly requestId: string | undefined;
  /** Epoch ms (producer clock); `undefined` for none. */
  readonly deadline: number | undefined;
  /** In ms; `undefined` for none. */
  readonly heartbeat: number | undefined;
  readonly lanes: readonly LaneLimit[];
}

/** What the worker's runner answered a job: a result through the codec, or a cancel. */
export type JobAnswer = { readonly result: WireResult } | { readonly cancelled: string; readonly started: boolean };

/**
 * The data of the job for one attempt of `call`, leaving out what the worker reads from the job's
 * id (the call's id, idempotency key and attempt) and every field at its default.
 */
export function callJobData(
  call: ToolCall,
  input: Record<string, unknown>,
  ctx: Pick<HandlerContext, "sessionId" | "requestId">,
  deadline: number,
  heartbeat: number,
  lanes: readonly LaneLimit[],
): CallJobData {
  return {
    v: 2,
    name: call.name,
    args: call.arguments,
    ...(call.rawArguments === undefined ? {} : { raw: call.rawArguments }),
    ...(input === call.arguments ? {} : { input }),
    ...(ctx.sessionId === undefined ? {} : { sessionId: ctx.sessionId }),
    ...(ctx.requestId === undefined ? {} : { requestId: ctx.requestId }),
    ...(deadline === Infinity ? {} : { deadline }),
    ...(heartbeat === DEFAULT_HEARTBEAT ? {} : { heartbeat: heartbeat === Infinity ? null : heartbeat }),
    ...(lanes.length === 0 ? {} : { lanes }),
  };
}

/**
 * Read a job a worker took: a version-2 job, or a version-1 job of a producer not upgraded yet.
 *
 * @throws {Error} saying what the job is, for a job of another name, another protocol version,
 * or an id `jobIdOf` did not write: BullMQ fails the job with it, and its producer reports it.
 */
export function readCallJob(name: string, jobId: string, data: unknown): RemoteCall {
  const version = (data as { v?: unknown } | null)?.v;
  if (name !== CALL_JOB || (version !== 1 && version !== 2)) {
    throw new Error(
      `not a toolrx call job of protocol 1 or 2 (name ${name}, protocol ${String(version)}): this worker and the producer are of versions that do not match`,
    );
  }
  if (version === 1) return fromV1(data as CallJobDataV1);
  const job = data as CallJobData;
  if (typeof job.name !== "string" || typeof job.args !== "object" || job.args === null) {
    throw new Error("not a toolrx call job of protocol 2: it has no tool name and arguments");
  }
  const { toolCallId, idempotencyKey, attempt } = jobIdPartsOf(jobId);
  // Not a spread of a conditional object: that made two objects more per job.
  const call: ToolCall =
    job.raw === undefined
      ? { id: toolCallId, name: job.name, arguments: job.args }
      : { id: toolCallId, name: job.name, arguments: job.args, rawArguments: job.raw };
  return {
    v: 2,
    call,
    input: job.input ?? job.args,
    idempotencyKey,
    attempt,
    sessionId: job.sessionId,
    requestId: job.requestId,
    deadline: job.deadline,
    heartbeat: job.heartbeat === null ? undefined : (job.heartbeat ?? DEFAULT_HEARTBEAT),
    lanes: job.lanes ?? [],
  };
}

function fromV1(job: CallJobDataV1): RemoteCall {
  return {
    v: 1,
    call: job.call,
    input: job.arguments ?? job.call.arguments,
    idempotencyKey: job.idempotencyKey,
    attempt: job.attempt,
    sessionId: job.sessionId,
    requestId: job.requestId,
    deadline: job.deadline,
    heartbeat: job.heartbeat,
    lanes: job.lanes ?? [],
  };
}

/** A job's answer in its job's protocol version: in version 2, an `ok` result without parts is its value alone. */
export function jobReturnOf(answer: JobAnswer, v: 1 | 2): CallJobReturn | CallJobReturnV1 {
  if (v === 1) return "cancelled" in answer ? { v, cancelled: answer.cancelled, started: answer.started } : { v, result: answer.result };
  if ("cancelled" in answer) return { v, cancelled: answer.cancelled, started: answer.started };
  const { result } = answer;
  return result.type === "ok" && result.parts === undefined ? { v, ok: result.value } : { v, result };
}

/** What a producer reads from a job's return value. */
export type ReadReturn = { readonly result: unknown } | { readonly cancelled: string; readonly started: boolean };

/**
 * Read a finished job's return value, of version 2 or (re-attached to a job an older producer
 * sent) version 1: the wire result to decode, or the cancel.
 *
 * @throws {TypeError} for a value no worker of either version writes.
 */
export function readJobReturn(returned: unknown): ReadReturn {
  const value = returned as { v?: unknown; ok?: unknown; result?: unknown; cancelled?: unknown; started?: unknown } | null;
  if (value?.v === 1 || value?.v === 2) {
    if (typeof value.cancelled === "string") return { cancelled: value.cancelled, started: value.started === true };
    if (value.v === 2 && "ok" in value) return { result: { type: "ok", value: value.ok } };
    if ("result" in value) return { result: value.result };
  }
  throw new TypeError(`unknown job return ${JSON.stringify(returned)}`);
}
