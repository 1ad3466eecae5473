import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readExtTask } from "../../../src/mcp/tasks/ext-task.js";

const STATUSES = ["working", "input_required", "completed", "failed", "cancelled"] as const;
const inline = { completed: { result: { content: [] } }, failed: { error: { code: -32603, message: "x" } }, input_required: { inputRequests: {} } } as Record<
  string,
  object
>;

describe("readExtTask", () => {
  it("never throws: anything a server sends is a task state or a problem in words", () => {
    fc.assert(
      fc.property(fc.anything(), fc.option(fc.string(), { nil: undefined }), fc.boolean(), (value, expectedId, handle) => {
        const read = readExtTask(value, expectedId, handle);
        expect(typeof read === "string" || (typeof read === "object" && read !== null)).toBe(true);
      }),
    );
  });

  it("reads a well-formed task of each status, its inline fields with it, and pollIntervalMs only as a non-negative integer", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.constantFrom(...STATUSES),
        fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constant(undefined)),
        (taskId, status, pollIntervalMs) => {
          const read = readExtTask({ taskId, status, createdAt: "", lastUpdatedAt: "", ttlMs: null, pollIntervalMs, ...inline[status] }, taskId);
          if (typeof read === "string") throw new Error(read);
          expect(read).toMatchObject({ taskId, status, ...inline[status] });
          const usable = typeof pollIntervalMs === "number" && Number.isSafeInteger(pollIntervalMs) && pollIntervalMs >= 0;
          expect(read.pollInterval).toBe(usable ? pollIntervalMs : undefined);
        },
      ),
    );
  });

  it("a task whose status needs an inline field it lacks is a problem, unless it is a handle (a CreateTaskResult carries none)", () => {
    for (const status of ["completed", "failed", "input_required"]) {
      const task = { taskId: "t1", status, createdAt: "", lastUpdatedAt: "", ttlMs: null };
      expect(readExtTask(task, "t1")).toMatch(/^task "t1" is \w+ without an? \w+ object$/);
      expect(readExtTask(task, undefined, true)).toMatchObject({ taskId: "t1", status });
    }
  });
});
