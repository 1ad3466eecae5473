/**
 * What the model reads when a call fails: jsonEncoder.encodeError's text for every kind of
 * value user code can hand the runner. It always says something, never throws, stays bounded,
 * and never carries a stack.
 */
import { describe, expect, it } from "vitest";
import { defineTool, jsonEncoder, ok, runToolCalls, streamToolCalls, ToolError } from "../../src/index.js";
import { anyArgs, call } from "../support/helpers.js";

const text = (reason: unknown) => (JSON.parse(jsonEncoder.encodeError(reason)) as { error: string }).error;

describe("jsonEncoder.encodeError on values user code hands over", () => {
  it("renders an Error nested in data as its name and message", () => {
    expect(text({ failed: new TypeError("bad city") })).toBe('{"failed":{"name":"TypeError","message":"bad city"}}');
  });

  it("renders a value through its toJSON, without the stack it returns", () => {
    const axiosLike = { toJSON: () => ({ message: "Request failed", code: "ECONNRESET", stack: new Error("x").stack }) };
    expect(text(axiosLike)).toBe('{"message":"Request failed","code":"ECONNRESET"}');
  });

  it("a toJSON that returns its own object, or throws, is said to be unreadable", () => {
    const selfish: { toJSON?: () => unknown } = {};
    selfish.toJSON = () => selfish;
    expect(text({ a: selfish })).toBe('{"a":"[unreadable]"}');
    expect(
      text({
        a: {
          toJSON: () => {
            throw new Error("no");
          },
        },
      }),
    ).toBe('{"a":"[unreadable]"}');
  });

  it("marks what cannot be read, and keeps what can", () => {
    const partial = {
      ok: 1,
      get broken() {
        throw new Error("getter");
      },
    };
    expect(text(partial)).toBe('{"ok":1,"broken":"[unreadable]"}');
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(text(proxy)).toBe("[unreadable]");
    expect(text({ inner: proxy })).toBe('{"inner":"[unreadable]"}');
  });

  it("leaves out nested values JSON leaves out, and says what a bigint was", () => {
    expect(text({ u: undefined, f: () => 1, s: Symbol("s"), n: 10n, list: [undefined, 1] })).toBe('{"n":"10n","list":[null,1]}');
  });

  it("keeps data shared by two fields; only a true cycle is marked", () => {
    const shared = { v: 1 };
    expect(text({ a: shared, b: shared })).toBe('{"a":{"v":1},"b":{"v":1}}');
    const list: unknown[] = [1];
    list.push(list);
    expect(text(list)).toBe('[1,"[Circular]"]');
  });

  it("stops at 8 levels of nesting", () => {
    let deep: unknown = "bottom";
    for (let i = 0; i < 12; i++) deep = { d: deep };
    expect(text(deep)).toBe(`${'{"d":'.repeat(8)}"[...]"${"}".repeat(8)}`);
  });

  it("shows 100 entries of a long list or object and counts the rest", () => {
    const list = Array.from({ length: 150 }, (_, i) => i);
    expect(JSON.parse(text(list))).toEqual([...list.slice(0, 100), "... 50 more"]);
    const wide = Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`k${i}`, i]));
    const shown = JSON.parse(text(wide)) as Record<string, unknown>;
    expect(Object.keys(shown)).toHaveLength(101);
    expect(shown["..."]).toBe("20 more keys");
  });

  it("cuts strings inside data at 2,000 characters and the whole text at 8,000", () => {
    expect(text({ s: "y".repeat(3_000) })).toBe(`{"s":"${"y".repeat(2_000)}..."}`);
    const many = Array.from({ length: 10 }, () => "z".repeat(1_500));
    const whole = text(many);
    expect(whole).toHaveLength(8_003);
    expect(whole.endsWith("...")).toBe(true);
  });

  it("cuts an error message at 10,000 characters", () => {
    expect(text(new Error("m".repeat(12_000)))).toBe(`${"m".repeat(10_000)}...`);
  });

  it("cuts stack frames out of strings and messages, in V8's and Firefox's formats", () => {
    expect(text("failed\n    at run (/app/src/tool.ts:3:9)\n    at new Promise (<anonymous>)")).toBe("failed");
    expect(text(new Error("failed\nrun@https://app.example/tool.js:3:9"))).toBe("failed");
    expect(text("at least one city is required")).toBe("at least one city is required");
    expect(text("write to ops@example.com")).toBe("write to ops@example.com");
  });

  it("a ToolError whose cause cannot be read says so", () => {
    const e = new ToolError("handler_raised", { toolName: "t" });
    Object.defineProperty(e, "cause", {
      get() {
        throw new Error("getter");
      },
    });
    expect(text(e)).toBe("tool error (t): handler_raised: [unreadable]");
  });

  it("a ToolError-like error from another copy of toolrx is rendered as one", () => {
    const foreign = Object.assign(new Error("tool error (t): timeout"), { name: "ToolError", reason: "timeout" });
    expect(text(foreign)).toBe("tool error (t): timeout");
    const impostor = Object.assign(new Error("x"), { name: "ToolError", reason: "made_up" });
    expect(text(impostor)).toBe("x");
  });

  it("a plain object with a message is data, rendered without its stack", () => {
    expect(text({ message: "db down", stack: "Error: db down\n    at q (/srv/db.js:1:1)" })).toBe('{"message":"db down"}');
  });
});

describe("describing bad values in messages", () => {
  const tool = defineTool({ name: "t", description: "", schema: anyArgs, handler: () => ok(1) });
  it.each([
    ["a long string", "s".repeat(100), `"${"s".repeat(77)}..."`],
    [
      "an anonymous function",
      (
        () => () =>
          1
      )(),
      "a function",
    ],
    ["a named function", function lookup() {}, "a function (lookup)"],
    ["an array", [1], "an array"],
    ["a bigint", 5n, "5n"],
  ])("%s", (_, value, described) => {
    expect(() => streamToolCalls([], [tool], { maxConcurrency: value as never })).toThrow(
      `Expected \`maxConcurrency\` to be a positive integer, got ${described}`,
    );
  });
});

describe("a handler returning a non-result object", () => {
  it("names it as an object, and lists the legal shapes", async () => {
    const bad = defineTool({ name: "bad", description: "", schema: anyArgs, handler: () => ({ tempC: 21 }) as never });
    const { messages } = await runToolCalls([call("c1", "bad")], [bad]);
    expect((JSON.parse(messages[0]?.content ?? "") as { error: string }).error).toMatch(
      /^invalid_return: tool bad returned an object, which is not a result: return ok\(value\)/,
    );
  });
});
