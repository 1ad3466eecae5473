/**
 * However a Chat Completions stream splits its tool calls into deltas, the model hands over the
 * same calls, whole, in the order they were streamed, each once.
 */
import fc from "fast-check";
import { from, lastValueFrom, map, toArray } from "rxjs";
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

/** The stream of `calls`, one after another, at their own index or all at index 0; `ends` counts the chunks up to each call's last delta. */
function stream(
  calls: readonly Sent[],
  cuts: readonly (readonly number[])[],
  atZero: boolean,
): { chunks: ChatCompletionChunkLike[]; ends: Map<string, number> } {
  const chunks: ChatCompletionChunkLike[] = [chunk({ role: "assistant", content: null } as never)];
  const ends = new Map<string, number>();
  calls.forEach((call, i) => {
    const index = atZero ? 0 : i;
    split(call.text, cuts[i] ?? []).forEach((part, j) => {
      const first = j === 0 ? { id: call.id, type: "function", function: { name: call.name, arguments: part } } : { function: { arguments: part } };
      chunks.push(chunk({ tool_calls: [{ index, ...first }] }));
    });
    ends.set(call.id, chunks.length);
  });
  chunks.push(chunk({}, "tool_calls"));
  return { chunks, ends };
}

/** The model's events, each with how many chunks the stream had sent when it came out. */
async function modelEvents(chunks: readonly ChatCompletionChunkLike[]): Promise<{ event: ModelEvent; sent: number }[]> {
  let sent = 0;
  const client = {
    chat: {
      completions: {
        create: async () =>
          (async function* () {
            for (const chunk of chunks) {
              sent++;
              yield chunk;
            }
          })(),
      },
    },
  };
  const events = from(openai.chatModel({ client, model: "gpt-fake" })(requestFor().request)).pipe(map((event) => ({ event, sent })));
  return lastValueFrom(events.pipe(toArray()));
}

function isObjectText(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
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
  it("hands over every streamed call once, whole, in stream order, however its arguments are split; a whole object with its last delta", async () => {
    const calls = fc
      .array(fc.tuple(fc.constantFrom("weather", "now", "book"), argumentText), { minLength: 1, maxLength: 4 })
      .map((list) => list.map(([name, text], i): Sent => ({ id: `call_${i}`, name, text })));
    await fc.assert(
      fc.asyncProperty(
        calls,
        fc.array(fc.array(fc.nat({ max: 200 }), { maxLength: 4 }), { minLength: 4, maxLength: 4 }),
        fc.boolean(),
        async (sent, cuts, atZero) => {
          const { chunks, ends } = stream(sent, cuts, atZero);
          const events = await modelEvents(chunks);
          const handed = events.flatMap(({ event, sent: at }) => (event.type === "tool_call" ? [{ call: event.call, at }] : []));
          expect(handed.map((h) => h.call)).toEqual(sent.map(({ id, name, text }) => ({ id, name, arguments: parsed(text), rawArguments: text })));
          expect(events.at(-1)?.event).toEqual({ type: "finish", reason: "tool_calls" });
          // A call whose text is a whole object comes out with its own last delta, not later.
          handed.forEach(({ call, at }) => {
            if (!isObjectText(call.rawArguments ?? "")) return;
            expect(at).toBe(ends.get(call.id));
          });
        },
      ),
      { numRuns: 1000 },
    );
  });
});
