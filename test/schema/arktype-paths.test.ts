/**
 * Issues from a Standard Schema (ArkType here) are in zod's shape, paths included: a plain array
 * of keys, not the library's own array subclass with extra enumerable properties (ArkType's
 * carries a `cache`), which would leak into JSON and surprise a deep equality.
 */
import { type } from "arktype";
import { describe, expect, it } from "vitest";
import { firstValueFrom, toArray } from "rxjs";
import { defineTool, ok, streamToolCalls } from "../../src/index.js";
import { call } from "../support/helpers.js";

describe("an ArkType schema's issues", () => {
  it("carry plain-array paths, as zod's do", async () => {
    const tool = defineTool({ name: "t", description: "", schema: type({ user: { city: "string" } }), handler: () => ok(1) });
    const events = await firstValueFrom(streamToolCalls([call("a", "t", { user: { city: 5 } })], [tool]).pipe(toArray()));
    const completed = events.find((e) => e.type === "tool_execution_completed");
    const reason = completed?.result.type === "error" ? (completed.result.reason as { issues?: { path: unknown }[] }) : undefined;
    const path = reason?.issues?.[0]?.path;
    expect(path).toStrictEqual(["user", "city"]);
    expect(Object.getPrototypeOf(path)).toBe(Array.prototype);
    expect(Object.keys(path as object)).toEqual(["0", "1"]);
    expect(JSON.stringify(path)).toBe('["user","city"]');
  });
});
