import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  chainTurns,
  clearToolResults,
  defineTool,
  ok,
  runAgent,
  toolSearch,
  type Message,
  type ModelEvent,
  type ModelRequest,
  type Tool,
} from "../../../src/index.js";
import { anthropic, checkConversation, openai } from "../../../src/providers/index.js";
import { scriptedModel } from "../../../src/testing/index.js";
import { issuesOf, NONE } from "../../support/conversation-issues.js";

const RUNS = Number(process.env.TOOLRX_PROPERTY_RUNS ?? 150);

const schema = z.object({ n: z.number().int().min(0) });
/** Every handler run, with the arguments it got: each must be what the schema accepts. */
const runs: { name: string; args: unknown }[] = [];
const toolNamed = (name: string): Tool =>
  defineTool({
    name,
    description: `${name.replaceAll("_", " ")} records`,
    schema,
    handler: (args) => {
      runs.push({ name, args });
      return ok(`${name}: ${args.n}`);
    },
  });
const NAMES = ["alpha_report", "beta_invoice", "gamma_ticket", "delta_weather", "epsilon_flight"];

/** What the model sends as a call's arguments. */
const argumentsArb = fc.oneof(
  fc.nat({ max: 9 }).map((n) => ({ n })), // valid
  fc.nat({ max: 9 }).map((n) => ({ n: String(n) })), // repairable: a number as a string
  fc.constant({ n: "many" }), // not repairable
  fc.constant({}), // missing: a repair must not invent it
);
const callArb = fc.record({
  target: fc.oneof(fc.constantFrom(...NAMES), fc.constant("search_tools"), fc.constant("no_such_tool")),
  args: argumentsArb,
  query: fc.constantFrom("report", "invoice", "weather flight", "ticket", "zzz"),
});
/** A turn: the model's calls, and whether the provider ran a tool of its own first (named like one of ours, or not). */
const turnArb = fc.record({ calls: fc.array(callArb, { maxLength: 5 }), hosted: fc.option(fc.constantFrom("web_search", ...NAMES), { nil: undefined }) });
const scenarioArb = fc.record({
  turns: fc.array(turnArb, { minLength: 1, maxLength: 4 }),
  /** Whose hosted items the model's turns carry, when it runs tools of its own. */
  host: fc.constantFrom("anthropic", "openai-responses"),
  cap: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
  kept: fc.subarray(NAMES, { maxLength: 2 }),
  clear: fc.boolean(),
});

describe("tool sets, together (property)", () => {
  it("no invalid, unrepaired or not-offered call reaches a handler; every call is answered once; every provider takes the conversation", async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async ({ turns, host, cap, kept, clear }) => {
        runs.length = 0;
        const found = toolSearch({ tools: NAMES.map(toolNamed), alwaysLoaded: kept });
        const offered: Set<string>[] = [];
        let id = 0;
        const model = scriptedModel([
          ...turns.map(({ calls, hosted }) => (r: ModelRequest): ModelEvent[] => {
            offered.push(new Set(r.tools.map((t) => t.name)));
            return [
              ...(hosted === undefined ? [] : hostedEvents(host, hosted, id++)),
              ...calls.map(
                (c): ModelEvent => ({
                  type: "tool_call",
                  call: { id: `c${id++}`, name: c.target, arguments: c.target === "search_tools" ? { query: c.query } : c.args },
                }),
              ),
              { type: "finish", reason: calls.length > 0 ? "tool_calls" : "stop" },
            ];
          }),
          [
            { type: "text_delta", text: "done" },
            { type: "finish", reason: "stop" },
          ],
        ]);
        const result = await runAgent({
          model,
          tools: found.tools,
          prepareTurn: clear ? chainTurns(found.prepareTurn, clearToolResults({ keepTurns: 1, keepUnder: 0 })) : found.prepareTurn,
          repairToolCall: ({ call }) => ({ n: Number(call.arguments.n) }),
          maxCallsPerTurn: cap,
          maxTurns: turns.length + 1,
          onUnknownTool: "answer",
          messages: [{ role: "user", content: "go" }],
        });
        for (const run of runs) expect(schema.safeParse(run.args).success).toBe(true);
        // A handler ran only for a tool its turn offered.
        const ranPerTurn = new Map<string, number>();
        for (const run of runs) ranPerTurn.set(run.name, (ranPerTurn.get(run.name) ?? 0) + 1);
        for (const name of ranPerTurn.keys()) expect(offered.some((set) => set.has(name))).toBe(true);
        // Every call answered exactly once, in a conversation every provider takes.
        const calls = result.messages.flatMap((m) => (m.role === "assistant" ? (m.toolCalls ?? []) : []));
        const answers = result.messages.flatMap((m) => (m.role === "tool" ? [m.toolCallId] : []));
        expect(answers.sort()).toEqual(calls.map((c) => c.id).sort());
        // The client calls of the conversation: a handler ran for no other (a hosted call named like a tool of ours included).
        const called = new Map<string, number>();
        for (const c of calls) called.set(c.name, (called.get(c.name) ?? 0) + 1);
        for (const [name, count] of ranPerTurn) expect(count).toBeLessThanOrEqual(called.get(name) ?? 0);
        // A turn without calls ends the run: the turns after it are never played.
        const played = turns.slice(0, turns.findIndex((t) => t.calls.length === 0) + 1 || turns.length);
        const hostedTurns = played.filter((t) => t.hosted !== undefined).length;
        const items = result.messages.flatMap((m) => (m.role === "assistant" ? (m.providerItems ?? []) : []));
        expect(items.length).toBe(hostedTurns * (host === "anthropic" ? 2 : 1));
        if (hostedTurns === 0) expect(issuesOf(result.messages)).toEqual(NONE);
        else expect(hostIssues(result.messages, host)).toEqual([]);
        // Calls past the cap were answered as such, never run.
        if (cap !== undefined) {
          const byId = new Map(result.messages.flatMap((m) => (m.role === "tool" ? [[m.toolCallId, m.content] as const] : [])));
          for (const m of result.messages) {
            if (m.role !== "assistant") continue;
            (m.toolCalls ?? []).forEach((call, i) => {
              expect(byId.get(call.id)?.includes("the limit per turn")).toBe(i >= cap);
            });
          }
          expect(runs.length).toBeLessThanOrEqual(turns.length * cap);
        }
      }),
      { numRuns: RUNS },
    );
  });
});

/** What the provider ran itself before the model's calls: text, its call and result (or item), more text. */
function hostedEvents(host: "anthropic" | "openai-responses", name: string, k: number): ModelEvent[] {
  const items: Record<string, unknown>[] =
    host === "anthropic"
      ? [
          { type: "server_tool_use", id: `srvtoolu_${k}`, name, input: { query: "q" } },
          { type: "web_search_tool_result", tool_use_id: `srvtoolu_${k}`, content: [] },
        ]
      : [{ type: "web_search_call", id: `ws_${k}`, status: "completed", action: { type: "search", query: "q" } }];
  return [
    { type: "text_delta", text: "Looking. " },
    ...items.map((item): ModelEvent => ({ type: "provider_item", provider: host, item })),
    { type: "text_delta", text: "Found. " },
  ];
}

/** The conversation as `host` gets it, checked against its rules; the other providers refuse it, naming the item. */
function hostIssues(messages: readonly Message[], host: "anthropic" | "openai-responses") {
  expect(() => openai.toChatMessages(messages)).toThrow(/to carry no .* provider items/);
  if (host === "anthropic") {
    expect(() => openai.toResponsesInput(messages)).toThrow(/to carry no anthropic provider items/);
    const { messages: sent } = anthropic.toMessages(messages);
    // Each turn with hosted items reads back as it was written.
    const withItems = (list: readonly Message[]) => list.filter((m) => m.role === "assistant" && m.providerItems !== undefined);
    expect(withItems(anthropic.fromMessages(sent))).toEqual(withItems(messages));
    return checkConversation(sent, "anthropic");
  }
  expect(() => anthropic.toMessages(messages)).toThrow(/to carry no openai-responses provider items/);
  return checkConversation(openai.toResponsesInput(messages), "openai-responses");
}
