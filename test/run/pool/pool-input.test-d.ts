import type { Subscriber } from "rxjs";
import { describe, it } from "vitest";
import type { ToolCall, ToolEvent } from "../../../src/index.js";
import { checkCall, snapshotCalls } from "../../../src/run/checks/index.js";
import type { RunEnv, ToolSource } from "../../../src/run/options/index.js";
import { Pool } from "../../../src/run/pool/index.js";

declare const env: RunEnv;
declare const source: ToolSource;
declare const subscriber: Subscriber<ToolEvent>;
declare const unchecked: ToolCall;

describe("what the pool takes", () => {
  it("takes only calls the checks passed", () => {
    new Pool(env, source, subscriber, snapshotCalls([unchecked])).push(checkCall(unchecked, 1));
    // @ts-expect-error: a call that did not go through checks/ cannot reach the scheduler
    new Pool(env, source, subscriber, [unchecked]);
    // @ts-expect-error: nor be pushed to a streamed pool
    new Pool(env, source, subscriber, undefined).push(unchecked);
  });
});
