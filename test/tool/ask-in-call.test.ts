import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { ClientRequestError, defineTool, ok, runToolCalls, type UserAnswer } from "../../src/index.js";

describe("ctx.askUser", () => {
  describe("when nothing can answer during the call (runToolCalls, the agent loop)", () => {
    it("ends the call as askUser(question, { form }) would: an ask_user halt whose opts carry the form's JSON Schema", async () => {
      const where = defineTool({
        name: "ship",
        description: "",
        schema: z.object({}),
        handler: async (_args, ctx) => {
          const answer = await ctx.askUser("Ship where?", z.object({ city: z.string() }));
          return ok(answer.action);
        },
      });
      const { messages, halt } = await runToolCalls([{ id: "c1", name: "ship", arguments: {} }], [where]);
      expect(messages).toEqual([{ role: "tool", toolCallId: "c1", name: "ship", content: "<awaiting user response>", isError: false }]);
      expect(halt).toMatchObject({
        haltedReason: "ask_user",
        pendingQuestion: "Ship where?",
        askUserOpts: { form: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
      });
    });
  });

  it("types the accepted content by the schema", () => {
    defineTool({
      name: "typed",
      description: "",
      schema: z.object({}),
      handler: async (_args, ctx) => {
        const answer = await ctx.askUser("Plan?", z.object({ plan: z.enum(["free", "pro"]), seats: z.number().default(1) }));
        expectTypeOf(answer).toEqualTypeOf<UserAnswer<{ plan: "free" | "pro"; seats: number }>>();
        const json = await ctx.askUser("Ok?", { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] } as const);
        if (json.action === "accept") expectTypeOf(json.content.ok).toEqualTypeOf<boolean>();
        return ok(answer.action);
      },
    });
  });

  it("rejects an empty question with a TypeError, which fails the call", async () => {
    const bad = defineTool({ name: "bad", description: "", schema: z.object({}), handler: async (_a, ctx) => ok(await ctx.askUser("", z.object({}))) });
    const { messages } = await runToolCalls([{ id: "c1", name: "bad", arguments: {} }], [bad]);
    expect(messages[0]?.content).toContain('Expected the question of `ctx.askUser` to be a non-empty string, got \\"\\"');
  });
});

describe("ctx.sample", () => {
  it("rejects with ClientRequestError no_client where no client model stands behind the run", async () => {
    const seen: unknown[] = [];
    const asks = defineTool({
      name: "asks",
      description: "",
      schema: z.object({}),
      handler: async (_args, ctx) => {
        try {
          return ok(await ctx.sample({ messages: [{ role: "user", content: "hi" }], maxTokens: 10 }));
        } catch (e) {
          seen.push(e);
          throw e;
        }
      },
    });
    const { messages } = await runToolCalls([{ id: "c1", name: "asks", arguments: {} }], [asks]);
    expect(seen[0]).toBeInstanceOf(ClientRequestError);
    expect(seen[0]).toMatchObject({ feature: "sample", reason: "no_client", message: "ctx.sample: this run has no client model to ask" });
    expect(messages[0]).toMatchObject({
      isError: true,
      content: '{"error":"tool error (asks): handler_raised: ctx.sample: this run has no client model to ask"}',
    });
  });

  it.each([
    [{ messages: [], maxTokens: 10 }, "Expected `messages` of `ctx.sample` to be a non-empty array, got an array"],
    [
      { messages: [{ role: "system", content: "x" }], maxTokens: 10 },
      'Expected `messages[0]` of `ctx.sample` to be { role: "user" | "assistant", content: string }, got an object',
    ],
    [{ messages: [{ role: "user", content: "x" }], maxTokens: 0 }, "Expected `maxTokens` of `ctx.sample` to be a positive integer, got 0"],
  ])("rejects a malformed request %j with a TypeError naming the field", async (request, why) => {
    let thrown: unknown;
    const asks = defineTool({
      name: "asks",
      description: "",
      schema: z.object({}),
      handler: async (_args, ctx) => {
        thrown = await ctx.sample(request as never).catch((e: unknown) => e);
        return ok("done");
      },
    });
    await runToolCalls([{ id: "c1", name: "asks", arguments: {} }], [asks]);
    expect(thrown).toEqual(new TypeError(why));
  });
});
