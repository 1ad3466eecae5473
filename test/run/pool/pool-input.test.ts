/**
 * The pool schedules; it does not validate. What a call's data must pass is checked before the
 * pool is built (src/run/checks/), so a pool handed a tool source runs its calls without asking
 * that source to check anything.
 */
import { lastValueFrom, Observable, toArray } from "rxjs";
import { describe, expect, it, vi } from "vitest";
import { defineTool, ok, type ToolEvent } from "../../../src/index.js";
import { snapshotCalls } from "../../../src/run/checks/index.js";
import { resolveOptions, toolSource, type ToolSource } from "../../../src/run/options/index.js";
import { Pool } from "../../../src/run/pool/index.js";
import { anyArgs, call } from "../../support/helpers.js";

const echo = defineTool({ name: "echo", description: "", schema: anyArgs, handler: () => ok("done") });

describe("Pool", () => {
  it("runs the checked calls it is given, never checking the tools itself", async () => {
    const env = resolveOptions(undefined, 2);
    const source: ToolSource = {
      ...toolSource([echo], env),
      check: vi.fn(() => {
        throw new Error("the pool checked the tools");
      }),
    };
    const calls = snapshotCalls([call("1", "echo"), call("2", "echo")]);
    const events = await lastValueFrom(new Observable<ToolEvent>((subscriber) => new Pool(env, source, subscriber, calls).open()).pipe(toArray()));
    expect(events.filter((event) => event.type === "tool_result_encoded").map((event) => event.index)).toEqual([0, 1]);
    expect(source.check).not.toHaveBeenCalled();
  });
});
