/**
 * The agent loop refuses a tool list the model could not use: two tools with one name are sent
 * to the model twice (providers reject the request) while the runner would answer with the first.
 */
import { describe, expect, it, vi } from "vitest";
import { defineTool, ok, runAgent, streamAgent, toolResolver } from "../../../src/index.js";
import { anyArgs } from "../../support/helpers.js";
import { finish, user } from "../../support/agent-helpers.js";

const handler = vi.fn(async () => ok("ran"));
const local = (name: string) => defineTool({ name, description: "", schema: anyArgs, handler });

describe("the agent loop, given two tools with one name", () => {
  it("throws a TypeError at call time naming both, before the model is asked", () => {
    const model = vi.fn(() => [finish("stop")]);
    expect(() => streamAgent({ model, tools: [local("search"), local("search")], messages: [user("go")] })).toThrow(
      /^Two tools are named "search": tools\[0\] and tools\[1\]/,
    );
    expect(model).not.toHaveBeenCalled();
  });

  it("ends with `error` carrying that TypeError when a resolver lists them, before the model is asked", async () => {
    const model = vi.fn(() => [finish("stop")]);
    const resolver = { ...toolResolver([local("search")]), availableTools: () => [local("search"), local("other"), local("search")] };
    const result = await runAgent({ model, tools: resolver, messages: [user("go")] });
    expect(result.haltedReason).toBe("error");
    expect(String((result.metadata as { error?: unknown }).error)).toMatch(
      /^TypeError: Two tools are named "search": availableTools\(\)\[0\] and availableTools\(\)\[2\]/,
    );
    expect(model).not.toHaveBeenCalled();
  });
});
