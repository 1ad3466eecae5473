import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ok, runAgent, toolSearch, type Tool } from "../../../src/index.js";
import { scriptedModel } from "../../../src/testing/index.js";
import { finish, toolCall, user } from "../../support/agent-helpers.js";

const tool = (name: string, description: string, metadata: Record<string, unknown> = {}): Tool =>
  defineTool({ name, description, schema: z.object({ id: z.string().optional() }), metadata, handler: () => ok(name) });

/** Tools as an agent gets them: two MCP servers, prefixed SaaS APIs, verb-first helpers, a prefix of one. */
const tools: Tool[] = [
  tool("k8s__list_pods", "List pods in a namespace with their status"),
  tool("k8s__scale_deployment", "Scale a deployment to a number of replicas"),
  tool("k8s__get_pod_logs", "Get the logs of a container in a pod"),
  tool("github__create_issue", "Create an issue in a repository"),
  tool("github__merge_pull_request", "Merge an open pull request"),
  tool("stripe_create_refund", "Refund a charge to the customer's card"),
  tool("stripe_list_charges", "List charges of a customer"),
  tool("billing_export_invoices", "Export invoices as CSV"),
  tool("billing_retry_payment", "Retry a failed payment"),
  tool("audit_log", "Read the audit log"),
  tool("create_invoice", "Create an invoice"),
  tool("create_quote", "Create a price quote"),
  tool("tagged", "A tool that says its group", { group: "misc" }),
];

/** What search_tools answers `query`, through the agent loop. */
async function ask(found: ReturnType<typeof toolSearch>, query: string) {
  const model = scriptedModel([[toolCall("s1", "search_tools", { query }), finish("tool_calls")], [finish("stop")]]);
  const result = await runAgent({ model, tools: found.tools, prepareTurn: found.prepareTurn, messages: [user(query)] });
  const answer = result.messages.find((m) => m.role === "tool");
  expect(answer?.isError).toBe(false);
  return { answer: JSON.parse(answer?.content ?? "{}"), requests: model.requests };
}

describe("toolSearch's groups", () => {
  it("derives a group from an MCP server, a namespace, a shared prefix or metadata, and none from a leading verb", () => {
    const found = toolSearch({ tools });
    expect(found.groups.map((g) => [g.name, g.size])).toEqual([
      ["k8s", 3],
      ["github", 2],
      ["stripe", 2],
      ["billing", 2],
      ["misc", 1],
    ]);
  });

  it("lists each group in the search tool's description with its size and a summary of its tools", () => {
    const found = toolSearch({ tools, groupSummaries: { stripe: "Payments: charges and refunds" } });
    const { description } = found.searchTool;
    expect(description).toContain("- k8s (3 tools): pod");
    expect(description).toContain("- stripe (2 tools): Payments: charges and refunds");
    expect(description).toContain("- misc (1 tool): ");
    expect(description).not.toMatch(/- (create|audit) /);
  });

  it("takes the user's grouping over the derived one, and refuses a group that is not a string", () => {
    const found = toolSearch({ tools, group: (t) => (t.name.includes("invoice") ? "invoicing" : undefined) });
    expect(found.groups.map((g) => g.name)).toEqual(["invoicing"]);
    expect(() => toolSearch({ tools, group: () => 7 as never })).toThrow("non-empty string or undefined");
  });

  it("answers a query naming a group with the group's tools, loading none", async () => {
    const { answer, requests } = await ask(toolSearch({ tools }), "K8S");
    expect(answer).toMatchObject({ group: "k8s", loaded: [] });
    expect(answer.tools.map((t: { name: string }) => t.name)).toEqual(["k8s__list_pods", "k8s__scale_deployment", "k8s__get_pod_logs"]);
    expect(requests[1]?.tools.map((t) => t.name)).toEqual(["search_tools"]);
  });

  it("lets a model browse a group, load a tool by its name, then call it", async () => {
    const ran: string[] = [];
    const callable = tools.map((t) =>
      defineTool({
        name: t.name,
        description: t.description,
        schema: z.object({}),
        handler: () => {
          ran.push(t.name);
          return ok("done");
        },
      }),
    );
    const found = toolSearch({ tools: callable });
    const model = scriptedModel([
      [toolCall("s1", "search_tools", { query: "k8s" }), finish("tool_calls")],
      [toolCall("s2", "search_tools", { query: "k8s__scale_deployment" }), finish("tool_calls")],
      [toolCall("c1", "k8s__scale_deployment", {}), finish("tool_calls")],
      [finish("stop")],
    ]);
    const result = await runAgent({ model, tools: found.tools, prepareTurn: found.prepareTurn, messages: [user("run five copies of checkout")] });
    expect(result.haltedReason).toBe("completed");
    expect(model.requests.map((r) => r.tools.some((t) => t.name === "k8s__scale_deployment"))).toEqual([false, false, true, true]);
    expect(ran).toEqual(["k8s__scale_deployment"]);
  });

  it("answers an empty search with the groups", async () => {
    const { answer } = await ask(toolSearch({ tools }), " ");
    expect(answer.loaded).toEqual([]);
    expect(answer.groups.map((g: { name: string; size: number }) => `${g.name}:${g.size}`)).toEqual(["k8s:3", "github:2", "stripe:2", "billing:2", "misc:1"]);
  });

  it("answers a search that finds nothing with the groups instead of an empty list", async () => {
    const { answer } = await ask(toolSearch({ tools }), "zzz qqq");
    expect(answer).toMatchObject({ loaded: [], tools: [] });
    expect(answer.groups).toHaveLength(5);
    expect(answer.note).toContain("group");
  });

  it("still answers an empty list when no tool has a group", async () => {
    const { answer } = await ask(toolSearch({ tools: [tool("create_invoice", "Create an invoice")] }), "zzz");
    expect(answer).toEqual({ loaded: [], tools: [] });
  });

  it("says each match's group, and a tool named like a group wins over the group", async () => {
    const withNamesake = [...tools, tool("k8s", "Run kubectl")];
    const found = toolSearch({ tools: withNamesake });
    expect((await found.search("scale deployment"))[0]).toMatchObject({ name: "k8s__scale_deployment", group: "k8s" });
    const { answer } = await ask(found, "k8s");
    expect(answer.loaded[0]).toBe("k8s");
  });
});
