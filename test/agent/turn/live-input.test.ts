import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { lastValueFrom, toArray } from "rxjs";
import { z } from "zod";
import { defineTool, ok, streamAgent, type AgentEvent, type Model, type ModelEvent } from "../../../src/index.js";
import { anthropic, openai } from "../../../src/providers/index.js";
import {
  anthropicEvents as e,
  anthropicTextTurn,
  CHAT_DONE,
  chatChunk,
  chatTextTurn,
  chatToolDelta,
  responses,
  responsesTextTurn,
} from "../../support/fake-streams.js";
import { startFake, type Fake } from "../../support/model-harness.js";
import { finish, user } from "../../support/agent-helpers.js";

let fake: Fake;
beforeEach(async () => {
  fake = await startFake();
});
afterEach(() => fake.server.close());

const weather = defineTool({
  name: "weather",
  description: "Weather by city",
  schema: z.object({ city: z.string() }),
  handler: async ({ city }, ctx) => {
    ctx.progress({ progress: 1, total: 2, message: `asking about ${city}` });
    return ok({ city, tempC: 21 });
  },
});

/** The live input and progress events of one run, as `<state> <text>` lines, in stream order. */
async function liveOf(model: Model): Promise<string[]> {
  const events = await lastValueFrom(streamAgent({ model, tools: [weather], messages: [user("Weather in Paris?")], maxTurns: 2 }).pipe(toArray()));
  return events.flatMap((event: AgentEvent) => {
    if (event.type === "tool_input") return [`${event.state} ${event.toolCallId} ${event.toolName} ${event.text}`];
    if (event.type === "call_report" && event.report.type === "progress") return [`progress ${event.report.toolCallId} ${event.report.message}`];
    if (event.type === "tool_event" && event.event.type === "tool_execution_started") return [`running ${event.event.toolCallId}`];
    return [];
  });
}

const expected = (id: string) => [
  `started ${id} weather `,
  `streaming ${id} weather {"city"`,
  `streaming ${id} weather {"city":"Paris"}`,
  `complete ${id} weather {"city":"Paris"}`,
  `running ${id}`,
  `progress ${id} asking about Paris`,
];

describe("live tool input as agent events", () => {
  it("openai.chatModel: a call forming, then running, then its progress", async () => {
    fake.server.queueStream("chat", {
      frames: [chatToolDelta(0, '{"city"', { id: "call_a", name: "weather" }), chatToolDelta(0, ':"Paris"}'), chatChunk({}, "tool_calls"), CHAT_DONE],
    });
    fake.server.queueStream("chat", { frames: chatTextTurn(["21°C."]) });
    expect(await liveOf(openai.chatModel({ client: fake.openai, model: "gpt-4.1" }))).toEqual(expected("call_a"));
  });

  it("openai.responsesModel", async () => {
    fake.server.queueStream("responses", {
      frames: [
        responses.created(),
        responses.callAdded(0, "call_r", "weather"),
        responses.argsDelta(0, '{"city"'),
        responses.argsDelta(0, ':"Paris"}'),
        responses.callDone(0, "call_r", "weather", '{"city":"Paris"}'),
        responses.completed(),
      ],
    });
    fake.server.queueStream("responses", { frames: responsesTextTurn(["21°C."]) });
    expect(await liveOf(openai.responsesModel({ client: fake.openai, model: "gpt-4.1" }))).toEqual(expected("call_r"));
  });

  it("anthropic.messagesModel", async () => {
    fake.server.queueStream("anthropic", {
      frames: [e.start(), e.toolStart(0, "toolu_a", "weather"), e.json(0, '{"city"'), e.json(0, ':"Paris"}'), e.stop(0), e.delta("tool_use"), e.messageStop()],
    });
    fake.server.queueStream("anthropic", { frames: anthropicTextTurn(["21°C."]) });
    expect(await liveOf(anthropic.messagesModel({ client: fake.anthropic, model: "claude-sonnet-4-6" }))).toEqual(expected("toolu_a"));
  });

  it("a call handed over whole has no live input; malformed live input is ignored", async () => {
    let turn = 0;
    const model: Model = () =>
      turn++ === 0
        ? ([
            { type: "tool_input_delta", id: "nobody", delta: "x" },
            { type: "tool_input_started", id: 42, name: "weather" } as unknown as ModelEvent,
            { type: "tool_call", call: { id: "c1", name: "weather", arguments: { city: "Paris" } } },
            finish("tool_calls"),
          ] satisfies ModelEvent[])
        : [finish("stop")];
    expect(await liveOf(model)).toEqual(["running c1", "progress c1 asking about Paris"]);
  });

  it("the host's own onCallReport still gets every report", async () => {
    const reports: string[] = [];
    let turn = 0;
    const model: Model = () =>
      turn++ === 0 ? [{ type: "tool_call", call: { id: "c1", name: "weather", arguments: { city: "Oslo" } } }, finish("tool_calls")] : [finish("stop")];
    const events = await lastValueFrom(
      streamAgent({ model, tools: [weather], messages: [user("?")], onCallReport: (r) => reports.push(r.type) }).pipe(toArray()),
    );
    expect(reports).toEqual(["progress"]);
    expect(events.filter((ev) => ev.type === "call_report")).toEqual([
      {
        type: "call_report",
        turn: 0,
        report: {
          type: "progress",
          index: 0,
          toolCallId: "c1",
          toolName: "weather",
          attempt: 1,
          progress: 1,
          total: 2,
          message: "asking about Oslo",
          data: undefined,
        },
      },
    ]);
  });
});
