import { describe, expect, it } from "vitest";
import { z } from "zod";
import { chainTurns, clearToolResults, defineTool, ok, runAgent, toolSearch, type Message, type ModelRequest, type Tool } from "../../../src/index.js";
import { issuesOf, NONE } from "../../support/conversation-issues.js";
import { scriptedModel } from "../../../src/testing/index.js";
import { finish, text, toolCall, user } from "../../support/agent-helpers.js";

const ran: string[] = [];
const tool = (name: string, description: string, schema: z.ZodObject = z.object({})): Tool =>
  defineTool({
    name,
    description,
    schema,
    handler: () => {
      ran.push(name);
      return ok(`${name} ran`);
    },
  });

/** 200 tools, a few of them about travel: the rest are noise a search must not return. */
function manyTools(): Tool[] {
  const tools: Tool[] = [
    tool("search_flights", "Search flights between two airports on a date", z.object({ from: z.string(), to: z.string(), date: z.string() })),
    tool("book_hotel", "Book a hotel room in a city for some nights", z.object({ city: z.string(), nights: z.number() })),
    tool("weather", "Current weather and forecast for a city", z.object({ city: z.string() })),
    tool("convert_currency", "Convert an amount of money between currencies", z.object({ amount: z.number(), from: z.string(), to: z.string() })),
  ];
  const topics = ["invoice", "ticket", "repository", "cluster", "database", "calendar", "contact", "document", "spreadsheet", "pipeline"];
  const verbs = ["create", "delete", "list", "update", "archive", "export", "import", "share", "lock", "restore"];
  for (const topic of topics)
    for (const verb of verbs) for (const n of [1, 2]) tools.push(tool(`${verb}_${topic}_${n}`, `${verb} a ${topic} record (variant ${n})`));
  return tools;
}

describe("toolSearch", () => {
  it("offers the search tool and the kept tools first, then what a search found, from the next turn", async () => {
    ran.length = 0;
    const found = toolSearch({ tools: manyTools(), alwaysLoaded: ["weather"] });
    const offered: string[][] = [];
    const model = scriptedModel([
      (r: ModelRequest) => {
        offered.push(r.tools.map((t) => t.name));
        return [toolCall("s1", "search_tools", { query: "flights to Lisbon" }), finish("tool_calls")];
      },
      (r: ModelRequest) => {
        offered.push(r.tools.map((t) => t.name));
        return [toolCall("f1", "search_flights", { from: "OSL", to: "LIS", date: "2026-12-01" }), finish("tool_calls")];
      },
      [text("booked"), finish("stop")],
    ]);
    const result = await runAgent({ model, tools: found.tools, prepareTurn: found.prepareTurn, messages: [user("fly me to Lisbon")] });
    // In the order of the agent's tools, whatever order they were loaded in.
    expect(offered[0]).toEqual(["weather", "search_tools"]);
    expect(offered[1]).toEqual(expect.arrayContaining(["weather", "search_tools", "search_flights"]));
    expect(offered[1]?.length).toBeLessThanOrEqual(7);
    expect(ran).toEqual(["search_flights"]);
    expect(result.haltedReason).toBe("completed");
    expect(issuesOf(result.messages)).toEqual(NONE);
  });

  it("answers a call to a tool not loaded yet not_found, saying how to load it, and never runs it", async () => {
    ran.length = 0;
    const found = toolSearch({ tools: manyTools() });
    const model = scriptedModel([[toolCall("b1", "book_hotel", { city: "Lisbon", nights: 2 }), finish("tool_calls")], [finish("stop")]]);
    const result = await runAgent({ model, tools: found.tools, prepareTurn: found.prepareTurn, messages: [user("a hotel")] });
    expect(ran).toEqual([]);
    const answer = result.messages.find((m) => m.role === "tool");
    expect(answer).toMatchObject({ isError: true });
    expect(answer?.content).toContain("not_found");
    expect(answer?.content).toContain("tool book_hotel is not offered this turn");
    expect(answer?.content).toContain("search_tools");
  });

  it("is deterministic and finds tools by name, description and argument names", async () => {
    const found = toolSearch({ tools: manyTools(), maxResults: 3 });
    expect((await found.search("convert money")).map((m) => m.name)[0]).toBe("convert_currency");
    expect((await found.search("nights")).map((m) => m.name)[0]).toBe("book_hotel");
    expect((await found.search("weather")).map((m) => m.name)[0]).toBe("weather");
    expect(await found.search("restore a spreadsheet")).toEqual(await found.search("restore a spreadsheet"));
    expect(await found.search("zzz qqq")).toEqual([]);
  });

  it("loads what the conversation's searches found, so a resumed run offers the same tools", () => {
    const found = toolSearch({ tools: manyTools() });
    const conversation: Message[] = [
      user("go"),
      { role: "assistant", content: "", toolCalls: [{ id: "s1", name: "search_tools", arguments: { query: "hotel" } }] },
      { role: "tool", toolCallId: "s1", name: "search_tools", content: JSON.stringify({ loaded: ["book_hotel", "not_a_tool"] }), isError: false },
    ];
    const plan = found.prepareTurn({ turn: 0, conversationTurn: 0, messages: conversation, tools: found.tools });
    expect(plan).toMatchObject({ tools: ["search_tools", "book_hotel"] });
  });

  it("ranks by a plugged-in embedding when one is given", async () => {
    const vector = (t: string) => [t.includes("weather") || t.includes("rain") ? 1 : 0, t.includes("hotel") ? 1 : 0, 0.01];
    const found = toolSearch({ tools: manyTools(), maxResults: 1, embed: async (texts) => texts.map(vector) });
    expect((await found.search("will it rain")).map((m) => m.name)).toEqual(["weather"]);
  });

  it("refuses bad options by name", () => {
    expect(() => toolSearch({ tools: manyTools(), alwaysLoaded: ["wether"] })).toThrow('did you mean "weather"');
    expect(() => toolSearch({ tools: manyTools(), maxResults: 0 })).toThrow("`maxResults`");
    expect(() => toolSearch({ tools: [tool("search_tools", "x")] })).toThrow("clashes");
    expect(() => toolSearch({ tools: [], limit: 3 } as never)).toThrow("`limit`");
  });

  it("sends a small part of 200 tools' schemas while the task needs a few", async () => {
    const all = manyTools();
    const found = toolSearch({ tools: all });
    const size = (tools: readonly Tool[]) => JSON.stringify(tools.map((t) => ({ name: t.name, description: t.description }))).length;
    const plan = await found.prepareTurn({ turn: 0, conversationTurn: 0, messages: [user("hi")], tools: found.tools });
    const offered = found.tools.filter((t) => (plan as { tools: string[] }).tools.includes(t.name));
    expect(size(offered) / size(all)).toBeLessThan(0.1);
  });
});

describe("maxCallsPerTurn", () => {
  it("runs the first calls and answers the rest in the model's order without running them", async () => {
    ran.length = 0;
    const tools = [tool("a", "a"), tool("b", "b"), tool("c", "c")];
    const model = scriptedModel([[toolCall("1", "a"), toolCall("2", "b"), toolCall("3", "c"), finish("tool_calls")], [finish("stop")]]);
    const result = await runAgent({ model, tools, maxCallsPerTurn: 2, messages: [user("go")] });
    expect(ran).toEqual(["a", "b"]);
    const answers = result.messages.filter((m) => m.role === "tool");
    expect(answers.map((m) => m.toolCallId)).toEqual(["1", "2", "3"]);
    expect(answers[2]).toMatchObject({ isError: true, content: expect.stringContaining("more than 2 tool calls, the limit per turn") });
    expect(issuesOf(result.messages)).toEqual(NONE);
  });

  it("refuses a limit that is not a positive integer", async () => {
    await expect(runAgent({ model: scriptedModel([]), tools: [], maxCallsPerTurn: 0, messages: [user("go")] })).rejects.toThrow("`maxCallsPerTurn`");
  });
});

describe("clearToolResults", () => {
  const long = "x".repeat(5_000);
  const conversation: Message[] = [
    user("go"),
    { role: "assistant", content: "", toolCalls: [{ id: "1", name: "docs", arguments: {} }] },
    { role: "tool", toolCallId: "1", name: "docs", content: long, isError: false },
    { role: "assistant", content: "", toolCalls: [{ id: "2", name: "docs", arguments: {} }] },
    { role: "tool", toolCallId: "2", name: "docs", content: long, isError: false },
  ];

  it("sends placeholders for results older than keepTurns; the conversation keeps them", async () => {
    const plan = await clearToolResults({ keepTurns: 1 })({ turn: 0, conversationTurn: 0, messages: conversation, tools: [] });
    const messages = (plan as { messages: Message[] }).messages;
    expect(messages).toHaveLength(conversation.length);
    expect(messages[2]).toMatchObject({ toolCallId: "1", content: "[result cleared to save context: 5,000 characters; call docs again if you need it]" });
    expect(messages[4]).toBe(conversation[4]);
    expect(conversation[2]).toMatchObject({ content: long });
  });

  it("changes nothing when every result is recent or short", async () => {
    expect(await clearToolResults({ keepTurns: 2 })({ turn: 0, conversationTurn: 0, messages: conversation, tools: [] })).toBeUndefined();
    expect(() => clearToolResults({ keepTurns: 0 })).toThrow("`keepTurns`");
  });
});

describe("chainTurns", () => {
  it("composes tool search with clearing: tools from one, messages from the other", async () => {
    const found = toolSearch({ tools: manyTools() });
    const asked: ModelRequest[] = [];
    const model = scriptedModel([
      [toolCall("s1", "search_tools", { query: "weather" }), finish("tool_calls")],
      [toolCall("w1", "weather", { city: "Oslo" }), finish("tool_calls")],
      (r: ModelRequest) => {
        asked.push(r);
        return [text("cold"), finish("stop")];
      },
    ]);
    await runAgent({
      model,
      tools: found.tools,
      prepareTurn: chainTurns(found.prepareTurn, clearToolResults({ keepTurns: 1, keepUnder: 0 })),
      messages: [user("weather?")],
    });
    const request = asked[0] as ModelRequest;
    expect(request.tools.map((t) => t.name).sort()).toEqual(["search_tools", "weather"]);
    expect(request.messages.find((m) => m.role === "tool" && m.toolCallId === "s1")).toMatchObject({ content: expect.stringContaining("result cleared") });
  });
});
