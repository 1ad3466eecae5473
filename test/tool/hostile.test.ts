import { describe, expect, it } from "vitest";
import { defaultExecutor, error, jsonEncoder, ok, runToolCalls, type ToolResultEncoder } from "../../src/index.js";
import { call, contextFor, flushMicrotasks } from "../support/helpers.js";
import { must } from "../support/must.js";
import { batch, expectAnswered, hostile, recordUnhandled, tools, trapsThrow, unhandled } from "./hostile-fixtures.js";

recordUnhandled();

describe("hostile values from user code (issue 9)", () => {
  describe.each(hostile)("%s", (_, make) => {
    it("thrown by a sync handler: that call answers handler_raised, its sibling keeps its message", async () => {
      const messages = await expectAnswered(
        runToolCalls(
          batch,
          tools(() => {
            throw make();
          }),
        ),
      );
      expect(JSON.parse(messages[0]?.content ?? "").error).toMatch(/handler_raised/);
    });

    it("rejected by an async handler: the batch still settles, with no unhandled rejection", async () => {
      await expectAnswered(
        runToolCalls(
          batch,
          tools(() => Promise.reject(make())),
        ),
      );
    });

    it("returned as error(value): the policy and encoder still answer", async () => {
      await expectAnswered(
        runToolCalls(
          batch,
          tools(() => error(make())),
        ),
      );
    });

    it("thrown by an encoder whose encodeError throws too: the fallback text answers", async () => {
      const encoder: ToolResultEncoder = {
        encode() {
          throw make();
        },
        encodeError() {
          throw make();
        },
      };
      const both = await runToolCalls(
        [call("c0", "t"), call("c1", "t")],
        tools(() => ok(1)),
        { toolResultEncoder: encoder },
      );
      await flushMicrotasks();
      expect(unhandled).toEqual([]);
      expect(both.messages.map((m) => JSON.parse(m.content).error)).toEqual([
        expect.stringMatching(/^tool error \(t\): encoding_failed/),
        expect.stringMatching(/^tool error \(t\): encoding_failed/),
      ]);
    });

    it("answered by a policy: that call halts with invalid_return", async () => {
      const result = await runToolCalls(
        batch,
        tools(() => error("x")),
        { onToolError: () => make() as never },
      );
      expect(result.halt).toEqual({ haltedReason: "tool_error", haltToolCallId: "c0" });
      expect(JSON.parse(result.messages[0]?.content ?? "").error).toMatch(/invalid_return/);
      expect(result.messages[1]?.content).toBe("fine");
    });

    it("returned by defaultExecutor's handler: converted to invalid_return, never thrown", () => {
      const tool = must(tools(make)[0]);
      const result = defaultExecutor.execute(tool, {}, contextFor(call("c0", "t")));
      expect(result).toMatchObject({ type: "error", reason: { reason: "invalid_return" } });
    });

    it("thrown by defaultExecutor's handler: converted to handler_raised, never thrown", () => {
      const tool = must(
        tools(() => {
          throw make();
        })[0],
      );
      const result = defaultExecutor.execute(tool, {}, contextFor(call("c0", "t")));
      expect(result).toMatchObject({ type: "error", reason: { reason: "handler_raised" } });
    });

    it("rendered by jsonEncoder.encodeError: still says something, without throwing", () => {
      const text = (JSON.parse(jsonEncoder.encodeError(make())) as { error: string }).error;
      expect(text.length).toBeGreaterThan(0);
    });
  });

  describe("a policy answer that throws when read", () => {
    const answers: [string, () => unknown][] = [
      [
        "a `continue` getter that throws",
        () => ({
          get continue() {
            throw new Error("getter");
          },
        }),
      ],
      [
        "a `then` getter that throws",
        () => ({
          continue: 1,
          // biome-ignore lint/suspicious/noThenProperty: a then that cannot be read is the case under test
          get then() {
            throw new Error("getter");
          },
        }),
      ],
      ["a Proxy whose traps throw", trapsThrow],
    ];
    it.each(answers)("%s halts that call with invalid_return, its sibling answered", async (_, answer) => {
      const result = await runToolCalls(
        batch,
        tools(() => error("x")),
        { onToolError: () => answer() as never },
      );
      expect(result.halt).toEqual({ haltedReason: "tool_error", haltToolCallId: "c0" });
      expect(JSON.parse(result.messages[0]?.content ?? "").error).toMatch(/^invalid_return: onToolError returned an object/);
      expect(result.messages[1]?.content).toBe("fine");
    });
  });
});
