import { describe, expect, it } from "vitest";
import { runAgent, streamAgent, type Message } from "../../../src/index.js";
import { scriptedModel } from "../../../src/testing/index.js";
import { callOf, user } from "../../support/agent-helpers.js";

// Issue 20, finding 8: the conversation's structure is checked up front, naming the message.

const model = scriptedModel([]);
const turn = (...ids: string[]): Message => ({ role: "assistant", content: "", toolCalls: ids.map((id) => callOf(id, "echo")) });
const answer = (id: string, content = "ok"): Message => ({ role: "tool", toolCallId: id, name: "echo", content, isError: false });

describe("a conversation no provider takes is refused before the model is asked", () => {
  const cases: [string, Message[], RegExp][] = [
    [
      "two answers to one call",
      [user("hi"), turn("c1"), answer("c1"), answer("c1")],
      /one answer to tool call "c1", got a second at `messages\[3\]` \(the first is `messages\[2\]`\)/,
    ],
    [
      "an answer whose id matches no call",
      [user("hi"), turn("c1"), answer("c1"), answer("c9")],
      /`messages\[3\]` to answer a call of the assistant turn at `messages\[1\]`, got tool call "c9"/,
    ],
    ["an answer before any call", [user("hi"), answer("c1")], /`messages\[1\]` to answer a call of an assistant turn with tool calls before it/],
    [
      "an ask_user call answered with a tool message",
      [
        user("hi"),
        turn("q1"),
        answer("q1", "<awaiting user response>"),
        { role: "assistant", content: "Sure?", metadata: { askUser: true, toolCallId: "q1" } },
        answer("q1", "yes"),
      ],
      /`messages\[4\]` not to answer tool call "q1": it asked the user \(`messages\[2\]`\); answer it with a user message/,
    ],
    ["two calls with one id in a turn", [user("hi"), turn("c1", "c1")], /tool call ids of `messages\[1\]` to be distinct, got "c1" twice/],
    [
      "a new turn while a call of the one before is unanswered",
      [user("hi"), turn("c1", "c2"), answer("c1"), { role: "assistant", content: "Done" }],
      /tool call "c2" of `messages\[1\]` to be answered before the next assistant turn at `messages\[3\]`/,
    ],
  ];

  it.each(cases)("%s: streamAgent throws a TypeError naming the message", (_name, messages, message) => {
    expect(() => streamAgent({ model, tools: [], messages })).toThrow(TypeError);
    expect(() => streamAgent({ model, tools: [], messages })).toThrow(message);
  });

  it.each(cases)("%s: runAgent rejects and the model is never asked", async (_name, messages) => {
    await expect(runAgent({ model, tools: [], messages })).rejects.toThrow(TypeError);
    expect(model.requests).toHaveLength(0);
  });

  it("a conversation of whole turns passes", () => {
    expect(() =>
      streamAgent({ model, tools: [], messages: [user("hi"), turn("c1", "c2"), answer("c2"), answer("c1"), { role: "assistant", content: "Done" }] }),
    ).not.toThrow();
  });
});
