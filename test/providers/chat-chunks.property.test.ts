/**
 * However a Chat Completions stream splits its tool calls into deltas, the model hands over the
 * same calls, whole, in the order they were streamed, each once.
 */
import fc from "fast-check";
import { lastValueFrom, from, toArray } from "rxjs";
import { describe, expect, it } from "vitest";
import type { ModelEvent } from "../../src/agent/types.js";
import { openai } from "../../src/providers/index.js";
import type { ChatCompletionChunkLike } from "../../src/providers/openai/index.js";
import { requestFor } from "../support/model-harness.js";

interface Sent {
  readonly id: string;
  readonly name: string;
  readonly text: string;
}

const argumentText = fc.oneof(
  fc.dictionary(fc.constantFrom("city", "days", "tags"), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }).map((v) => JSON.stringify(v)),
  fc.constantFrom("", '{"city": "Os', "[1, 2]", "not json", "{}"),
);

/** Split `text` at the given cut points (each taken modulo its length). */
function split(text: string, cuts: readonly number[]): string[] {
  const at = [...new Set(cuts.map((c) => (text.length === 0 ? 0 : c % text.length)))].filter((c) => c > 0).sort((a, b) => a - b);
  const parts: string[] = [];
  let from = 0;
  for (const c of at) {
    parts.push(text.slice(from, c));
    from = c;
  }
  parts.push(text.slice(from));
  return parts;
}

function chunk(delta: ChatCompletionChunkLike["choices"][number]["delta"], finish: string | null = null): ChatCompletionChunkLike {
  return { id: "chatcmpl_1", model: "gpt-fake", choices: [{ index: 0, delta, finish_reason: finish }] };
}

/** The stream of `calls`, one after another, at their own index or all at index 0. */
function stream(calls: readonly Sent[], cuts: readonly (readonly number[])[], atZero: boolean): ChatCompletionChunkLike[] {
  const chunks: ChatCompletionChunkLike[] = [chunk({ role: "assistant", content: null } as never)];
  calls.forEach((call, i) => {
    const index = atZero ? 0 : i;
    split(call.text, cuts[i] ?? []).forEach((part, j) => {
      const first = j === 0 ? { id: call.id, type: "function", function: { name: call.name, arguments: part } } : { function: { arguments: part } };
      chunks.push(chunk({ tool_calls: [{ index, ...first }] }));
    });
  });
  chunks.push(chunk({}, "tool_calls"));
  return chunks;
}

async function modelEvents(chunks: readonly ChatCompletionChunkLike[]): Promise<ModelEvent[]> {
  const client = {
    chat: {
      completions: {
        create: async () =>
          (async function* () {
            yield* chunks;
          })(),
      },
    },
  };
  return lastValueFrom(from(openai.chatModel({ client, model: "gpt-fake" })(requestFor().request)).pipe(toArray()));
}

const parsed = (text: string) => {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
};

describe("openai.chatModel", () => {
  it("hands over every streamed call once, whole, in stream order, however its arguments are split", async () => {
    const calls = fc
      .array(fc.tuple(fc.constantFrom("weather", "now", "book"), argumentText), { minLength: 1, maxLength: 4 })
      .map((list) => list.map(([name, text], i): Sent => ({ id: `call_${i}`, name, text })));
    await fc.assert(
      fc.asyncProperty(calls, fc.array(fc.array(fc.nat({ max: 200 }), { maxLength: 4 }), { minLength: 4, maxLength: 4 }), fc.boolean(), async (sent, cuts, atZero) => {
        const events = await modelEvents(stream(sent, cuts, atZero));
        const handed = events.flatMap((e) => (e.type === "tool_call" ? [e.call] : []));
        expect(handed).toEqual(sent.map(({ id, name, text }) => ({ id, name, arguments: parsed(text), rawArguments: text })));
        expect(events.at(-1)).toEqual({ type: "finish", reason: "tool_calls" });
      }),
      { numRuns: 1000 },
    );
  });
});
