import { describe, expect, it } from "vitest";
import { z } from "zod";
import { askUser, defineTool, ok, runAgent, toolResolver, type Message, type ModelRequest, type TurnInfo } from "../../../src/index.js";
import { openai } from "../../../src/providers/index.js";
import { scriptedModel } from "../../../src/testing/index.js";
import { chatTextTurn } from "../../support/fake-streams.js";
import { startFake } from "../../support/model-harness.js";
import { finish, text, toolCall, user } from "../../support/agent-helpers.js";

const ran: string[] = [];
const tool = (name: string) =>
  defineTool({
    name,
    description: name,
    schema: z.object({}),
    handler: () => {
      ran.push(name);
      return ok(`${name} ran`);
    },
  });
const tools = [tool("search"), tool("delete_all"), tool("summarise")];

describe("prepareTurn: per-turn tool sets and request amendment", () => {
  it("the model sees only the offered tools, and a call to another is answered not_found without running", async () => {
    ran.length = 0;
    const seen: string[][] = [];
    const model = scriptedModel([
      (r: ModelRequest) => {
        seen.push(r.tools.map((t) => t.name));
        return [toolCall("c1", "search"), toolCall("c2", "delete_all"), finish("tool_calls")];
      },
      (r: ModelRequest) => {
        seen.push(r.tools.map((t) => t.name));
        return [text("done"), finish("stop")];
      },
    ]);
    const result = await runAgent({
      model,
      tools,
      messages: [user("go")],
      prepareTurn: ({ turn }) => ({ tools: turn === 0 ? ["search"] : ["summarise"] }),
    });
    expect(seen).toEqual([["search"], ["summarise"]]);
    expect(ran).toEqual(["search"]);
    const answers = result.messages.filter((m) => m.role === "tool");
    expect(answers[0]).toMatchObject({ toolCallId: "c1", content: "search ran", isError: false });
    expect(answers[1]).toMatchObject({ toolCallId: "c2", isError: true, content: expect.stringContaining("not_found") });
    expect(answers[1]?.content).toContain("search");
  });

  it("works the same over a resolver", async () => {
    ran.length = 0;
    const model = scriptedModel([[toolCall("c1", "delete_all"), finish("tool_calls")], [finish("stop")]]);
    const result = await runAgent({ model, tools: toolResolver(tools), messages: [user("go")], prepareTurn: () => ({ tools: ["search"] }) });
    expect(ran).toEqual([]);
    expect(result.messages.find((m) => m.role === "tool")).toMatchObject({ isError: true, content: expect.stringContaining("not_found") });
  });

  it("amends the request's messages for that turn only; the conversation stays as it was", async () => {
    const asked: (readonly Message[])[] = [];
    const model = scriptedModel([
      (r: ModelRequest) => {
        asked.push(r.messages);
        return [text("hi"), finish("stop")];
      },
    ]);
    const result = await runAgent({
      model,
      tools,
      messages: [user("go")],
      prepareTurn: async ({ messages }) => ({ messages: [{ role: "system", content: "Be brief." }, ...messages] }),
    });
    expect(asked[0]).toEqual([{ role: "system", content: "Be brief." }, user("go")]);
    expect(result.messages).toEqual([user("go"), { role: "assistant", content: "hi" }]);
  });

  it("sends a turn's model options with that request (openai.chatModel, real SDK)", async () => {
    const fake = await startFake();
    try {
      fake.server.queueStream("chat", { frames: chatTextTurn(["ok"]) });
      const model = openai.chatModel({ client: fake.openai, model: "gpt-4.1", temperature: 1 });
      await runAgent({ model, tools, messages: [user("go")], prepareTurn: () => ({ modelOptions: { temperature: 0, tool_choice: "none" } }) });
      const body = fake.server.requests.at(-1)?.body as Record<string, unknown>;
      expect(body).toMatchObject({ temperature: 0, tool_choice: "none", model: "gpt-4.1" });
    } finally {
      fake.server.close();
    }
  });

  it("a plan naming a tool the run does not have ends the run with error, naming it", async () => {
    const model = scriptedModel([[finish("stop")]]);
    const result = await runAgent({ model, tools, messages: [user("go")], prepareTurn: () => ({ tools: ["nope"] }) });
    expect(result.haltedReason).toBe("error");
    expect(String(((result.metadata as { error?: Error }).error as Error).message)).toContain('"nope"');
  });

  describe("when a run resumes a conversation", () => {
    it("turn restarts at 0 while conversationTurn goes on counting the model's replies", async () => {
      const ask = defineTool({ name: "ask", description: "Ask the user", schema: z.object({}), handler: () => askUser("Which city?") });
      const seen: [number, number][] = [];
      const prepareTurn = ({ turn, conversationTurn }: TurnInfo) => {
        seen.push([turn, conversationTurn]);
      };
      const model = scriptedModel([
        [toolCall("c1", "search"), finish("tool_calls")],
        [toolCall("c2", "ask"), finish("tool_calls")],
        [toolCall("c3", "search"), finish("tool_calls")],
        [text("done"), finish("stop")],
      ]);
      const first = await runAgent({ model, tools: [...tools, ask], messages: [user("go")], prepareTurn });
      expect(first.haltedReason).toBe("ask_user");
      expect(seen).toEqual([
        [0, 0],
        [1, 1],
      ]);
      // The question the loop appended is not a model reply: the resumed run's first turn is the third.
      const second = await runAgent({ model, tools: [...tools, ask], messages: [...first.messages, user("Oslo")], prepareTurn });
      expect(second.haltedReason).toBe("completed");
      expect(seen.slice(2)).toEqual([
        [0, 2],
        [1, 3],
      ]);
    });

    it("counts a conversation the host brings from elsewhere, and is the same for a sync and an async hook", async () => {
      const history: Message[] = [user("hi"), { role: "assistant", content: "hello" }, user("again"), { role: "assistant", content: "yes?" }, user("go")];
      const seen: number[] = [];
      const model = scriptedModel([[finish("stop")], [finish("stop")]]);
      await runAgent({ model, tools, messages: history, prepareTurn: ({ conversationTurn }) => void seen.push(conversationTurn) });
      await runAgent({ model, tools, messages: history, prepareTurn: async ({ conversationTurn }) => void seen.push(conversationTurn) });
      expect(seen).toEqual([2, 2]);
    });
  });
});
