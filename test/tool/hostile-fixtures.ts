import { afterEach, beforeEach, expect } from "vitest";
import { defineTool, ok, type HandlerResult } from "../../src/index.js";
import { anyArgs, call, flushMicrotasks } from "../support/helpers.js";

// What the hostile-input tests (hostile, hostile-executors) share: values that throw wherever they
// are read, a batch of a hostile tool beside a fine one, and a watch on unhandled rejections.

/** An Error whose `message` getter throws. */
export function errorWithThrowingMessage(): Error {
  const e = new Error("hidden");
  Object.defineProperty(e, "message", {
    get() {
      throw new Error("message getter");
    },
  });
  return e;
}

/** A revoked Proxy: every operation on it throws. */
export function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

/** A Proxy every one of whose traps throws. */
export function trapsThrow(): object {
  const trap = () => {
    throw new Error("trap");
  };
  return new Proxy({}, { get: trap, has: trap, ownKeys: trap, getOwnPropertyDescriptor: trap, getPrototypeOf: trap });
}

/** Values that throw wherever they are read. */
export const hostile: [string, () => unknown][] = [
  ["an Error whose message getter throws", errorWithThrowingMessage],
  ["a revoked Proxy", revokedProxy],
  ["a Proxy whose traps throw", trapsThrow],
];

/** The unhandled rejections of the current test. */
export const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

/** Registers, in the calling file, the watch on unhandled rejections around each test. */
export function recordUnhandled(): void {
  beforeEach(() => {
    unhandled.length = 0;
    process.on("unhandledRejection", onUnhandled);
  });
  afterEach(() => {
    process.off("unhandledRejection", onUnhandled);
  });
}

/** A tool named `t` answered by `handler`, beside a well-behaved sibling `ok`. */
export function tools(handler: () => unknown) {
  return [
    defineTool({ name: "t", description: "", schema: anyArgs, handler: handler as () => HandlerResult }),
    defineTool({ name: "fine", description: "", schema: anyArgs, handler: () => ok("fine") }),
  ];
}
/** A call of the hostile tool `t`, then one of `fine`. */
export const batch = [call("c0", "t"), call("c1", "fine")];

/** The batch answered in order, the hostile call as an error, the fine one as fine, and no unhandled rejection. */
export async function expectAnswered(result: Promise<{ messages: { toolCallId: string; content: string; isError: boolean }[] }>) {
  const { messages } = await result;
  await flushMicrotasks();
  expect(messages.map((m) => m.toolCallId)).toEqual(["c0", "c1"]);
  expect(messages[0]?.isError).toBe(true);
  expect(messages[1]).toMatchObject({ content: "fine", isError: false });
  expect(unhandled).toEqual([]);
  return messages;
}
