import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ok, runAgent, toolSearch, type Tool } from "../../../src/index.js";
import { scriptedModel } from "../../../src/testing/index.js";
import { finish, toolCall, user } from "../../support/agent-helpers.js";

const tool = (name: string, description: string, schema: z.ZodObject = z.object({})): Tool =>
  defineTool({ name, description, schema, handler: () => ok(name) });

const refund = tool(
  "stripe_create_refund",
  "Refund a charge, in full or in part.",
  z.object({
    charge: z.string().describe("ID of the charge to refund"),
    amount: z.number().optional(),
    options: z.object({ reason: z.string().describe("Why") }),
  }),
);
const scale = tool(
  "k8s__scale_deployment",
  "Scale a deployment to a number of replicas.",
  z.object({ replicas: z.number().describe("Desired number of replicas") }),
);
const weather = tool("weather", "Current weather for a city");

/** A recording embedder: one vector per text, from its length, and every call's texts. */
function recorder() {
  const calls: string[][] = [];
  const embed = async (texts: readonly string[]) => {
    calls.push([...texts]);
    return texts.map((t) => [t.length % 7, 1, t.includes("money") || t.includes("Refund") ? 5 : 0]);
  };
  return { calls, embed };
}

describe("toolSearch's embed", () => {
  it("gets each tool's name, description and argument descriptions as written, and the query as written", async () => {
    const { calls, embed } = recorder();
    const found = toolSearch({ tools: [refund, scale, weather], embed });
    await found.search("Give a customer their money back!");
    expect(calls).toEqual([
      [
        "stripe_create_refund\nRefund a charge, in full or in part.\ncharge: ID of the charge to refund\namount\noptions\noptions.reason: Why",
        "k8s__scale_deployment\nScale a deployment to a number of replicas.\nreplicas: Desired number of replicas",
        "weather\nCurrent weather for a city",
        "Give a customer their money back!",
      ],
    ]);
  });

  it("embeds each tool's text once: later searches send the query alone", async () => {
    const { calls, embed } = recorder();
    const found = toolSearch({ tools: [refund, scale, weather], embed });
    await found.search("money back");
    await found.search("more replicas");
    expect(calls.map((c) => c.length)).toEqual([4, 1]);
    expect(calls[1]).toEqual(["more replicas"]);
  });

  it("shares one request between searches running together", async () => {
    const { calls, embed } = recorder();
    const found = toolSearch({ tools: [refund, scale, weather], embed });
    await Promise.all([found.search("a"), found.search("b"), found.search("c")]);
    const embedded = calls.flat().filter((t) => !["a", "b", "c"].includes(t));
    expect(embedded).toHaveLength(3);
    expect(new Set(embedded).size).toBe(3);
  });

  it("sends batches of at most embedBatchSize texts, the query in the last", async () => {
    const { calls, embed } = recorder();
    const tools = Array.from({ length: 5 }, (_, i) => tool(`t${i}`, `tool number ${i}`));
    await toolSearch({ tools, embed, embedBatchSize: 2 }).search("q");
    expect(calls).toEqual([
      ["t0\ntool number 0", "t1\ntool number 1"],
      ["t2\ntool number 2", "t3\ntool number 3"],
      ["t4\ntool number 4", "q"],
    ]);
  });

  it("embeds a tool again when its text changed, and only that one, with a shared cache", async () => {
    const cache = new Map<string, readonly number[]>();
    const first = recorder();
    await toolSearch({ tools: [refund, scale, weather], embed: first.embed, embedCache: cache }).search("x");
    const changed = tool("weather", "Current weather and a 7-day forecast for a city");
    const second = recorder();
    await toolSearch({ tools: [refund, scale, changed], embed: second.embed, embedCache: cache }).search("y");
    expect(second.calls).toEqual([["weather\nCurrent weather and a 7-day forecast for a city", "y"]]);
  });

  it("fails the search when embed fails, caches nothing of it, and tries again on the next search", async () => {
    let fail = true;
    const { calls, embed } = recorder();
    const flaky = async (texts: readonly string[]) => {
      if (fail) throw new Error("model down");
      return embed(texts);
    };
    const found = toolSearch({ tools: [refund, scale, weather], embed: flaky });
    await expect(found.search("money")).rejects.toThrow("model down");
    fail = false;
    expect((await found.search("money back")).map((m) => m.name)[0]).toBe("stripe_create_refund");
    expect(calls.map((c) => c.length)).toEqual([4]);
  });

  it("refuses what is not one vector of finite numbers per text, by name", async () => {
    const short = toolSearch({ tools: [refund, scale], embed: async () => [[1]] });
    await expect(short.search("x")).rejects.toThrow("Expected `embed` to return 3 vectors for 3 texts");
    const nan = toolSearch({ tools: [refund], embed: async (texts) => texts.map(() => [Number.NaN]) });
    await expect(nan.search("x")).rejects.toThrow("vectors of finite numbers");
    const mixed = new Map<string, readonly number[]>();
    await toolSearch({ tools: [refund], embed: async (texts) => texts.map(() => [1, 2, 3]), embedCache: mixed }).search("x");
    const other = toolSearch({ tools: [refund], embed: async (texts) => texts.map(() => [1, 2]), embedCache: mixed });
    await expect(other.search("x")).rejects.toThrow("shared with another model");
    expect(() => toolSearch({ tools: [refund], embed: async () => [], embedBatchSize: 0 })).toThrow("`embedBatchSize`");
    expect(() => toolSearch({ tools: [refund], embedCache: {} as never })).toThrow("`embedCache`");
  });

  it("answers the model through search_tools with the fused ranking, the exact name first", async () => {
    // The embedding ranks the weather tool last for the query; named exactly, it still comes first.
    const embed = async (texts: readonly string[]) => texts.map((t) => (t !== "weather" && t.startsWith("weather") ? [0, 1] : [1, 0]));
    const found = toolSearch({ tools: [refund, scale, weather], embed, maxResults: 2 });
    const model = scriptedModel([[toolCall("s1", "search_tools", { query: "weather" }), finish("tool_calls")], [finish("stop")]]);
    const result = await runAgent({ model, tools: found.tools, prepareTurn: found.prepareTurn, messages: [user("weather?")] });
    const answer = JSON.parse(result.messages.find((m) => m.role === "tool")?.content ?? "{}");
    expect(answer.loaded[0]).toBe("weather");
    expect(answer.loaded).toHaveLength(2);
  });
});
