/**
 * examples/agent-openai.ts, run as a user runs it, against the local fake provider (the OpenAI SDK
 * honours OPENAI_BASE_URL): the real SDK path of the example is exercised in CI, without a key.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeProviders, type FakeProviders } from "../support/fake-providers.js";
import { CHAT_DONE, chatChunk, chatTextTurn, chatToolDelta } from "../support/fake-streams.js";

const run = promisify(execFile);
const example = (env: Record<string, string | undefined>) =>
  run("node_modules/.bin/tsx", ["examples/agent-openai.ts"], { env: { ...process.env, ...env }, timeout: 60_000 });

/** A Chat Completions turn that asks for `calls` (each `[id, name, arguments]`). */
const toolTurn = (text: string, calls: readonly [string, string, object][]) => [
  chatChunk({ role: "assistant", content: text }),
  ...calls.map(([id, name, args], i) => chatToolDelta(i, JSON.stringify(args), { id, name })),
  chatChunk({}, "tool_calls"),
  CHAT_DONE,
];

interface SentMessage {
  role: string;
  content?: unknown;
  tool_calls?: { id: string }[];
  tool_call_id?: string;
}

let fake: FakeProviders;
beforeEach(async () => {
  fake = await startFakeProviders();
});
afterEach(() => fake.close());

describe("examples/agent-openai.ts", () => {
  describe("when OPENAI_API_KEY is not set", () => {
    it("says what it would do and how to run it, sends nothing, and exits 0", async () => {
      const { stdout } = await example({ OPENAI_API_KEY: "", OPENAI_BASE_URL: fake.env.OPENAI_BASE_URL });
      expect(stdout).toContain("OPENAI_API_KEY is not set");
      expect(stdout).toContain("OPENAI_API_KEY=sk-... npm run example:agent-openai");
      expect(fake.requests).toEqual([]);
    }, 60_000);
  });

  describe("when OPENAI_API_KEY is set", () => {
    it("runs the agent through the OpenAI SDK: tools answered, halts on the confirmation, resumes with the answer, completes", async () => {
      fake.queueStream("chat", {
        frames: toolTurn("Checking.", [
          ["call_1", "weather", { city: "Lisbon" }],
          ["call_2", "search_flights", { from: "OSL", to: "LIS", adults: 2 }],
        ]),
      });
      fake.queueStream("chat", {
        frames: toolTurn("", [
          ["call_3", "book_hotel", { city: "Lisbon", nights: 3 }],
          ["call_4", "confirm_trip", { summary: "OSL→LIS, 2 adults" }],
        ]),
      });
      fake.queueStream("chat", { frames: chatTextTurn(["Booked: ", "TP1351."]) });

      const { stdout } = await example({ ...fake.env, OPENAI_MODEL: "gpt-fake" }); // rejects on a non-zero exit

      expect(stdout).toContain('halted: ask_user {"pendingQuestion":"Book this trip? OSL→LIS, 2 adults"');
      expect(stdout).toContain('halted: completed {"finishReason":"stop"}');
      const bodies = fake.requests.map((r) => r.body as { model: string; stream: boolean; tools: { function: { name: string } }[]; messages: SentMessage[] });
      expect(bodies.map((b) => [b.model, b.stream])).toEqual([
        ["gpt-fake", true],
        ["gpt-fake", true],
        ["gpt-fake", true],
      ]);
      expect(bodies[0]?.tools.map((t) => t.function.name)).toEqual(["weather", "search_flights", "convert_currency", "book_hotel", "confirm_trip"]);
      // The last request carries the whole conversation: every tool call answered, then the user's "yes".
      const sent = bodies[2]?.messages ?? [];
      const asked = sent.flatMap((m) => m.tool_calls?.map((c) => c.id) ?? []);
      const answered = sent.filter((m) => m.role === "tool").map((m) => m.tool_call_id);
      expect(asked).toEqual(["call_1", "call_2", "call_3", "call_4"]);
      expect(answered).toEqual(asked);
      const results = sent.filter((m) => m.role === "tool").map((m) => String(m.content));
      expect(results[0]).toBe('{"city":"Lisbon","tempC":19,"sky":"clear"}');
      expect(results[1]).toContain('"flight":"TP1351"');
      expect(results[2]).toContain("hotel API answered 503");
      expect(sent.at(-1)).toEqual({ role: "user", content: "yes" });
    }, 60_000);
  });
});
