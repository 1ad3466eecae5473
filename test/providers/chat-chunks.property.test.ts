/**
 * However a Chat Completions stream splits its tool calls into deltas, and however it interleaves
 * them by index, the model hands over the same calls, whole, in the order they were streamed,
 * each once, and never a call before its last delta.
 */
import fc from "fast-check";
import { from, lastValueFrom, map, toArray } from "rxjs";
import { describe, expect, it } from "vitest";
import type { ModelEvent } from "../../src/agent/model/model.js";
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
  it("hands over every streamed call once, whole, in stream order, however its arguments are split; each as soon as it and the calls before it are complete", async () => {
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
          // A call comes out as soon as it and every call before it are complete: a whole object
          // with its own last delta, another text when a new id takes its index or at the finish.
          const finishAt = chunks.length;
          let due = 0;
          handed.forEach(({ call, at }, i) => {
            const end = ends.get(call.id) as number;
            const ready = isObjectText(call.rawArguments ?? "") ? end : atZero && i < sent.length - 1 ? end + 1 : finishAt;
            due = Math.max(due, ready);
            expect(at).toBe(due);
          });
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("hands over the calls of the stream written one call after another, whatever order the deltas of different indexes interleave in", async () => {
    const calls = fc
      .array(fc.tuple(fc.constantFrom("weather", "now", "book"), argumentText), { minLength: 2, maxLength: 4 })
      .map((list) => list.map(([name, text], i): Sent => ({ id: `call_${i}`, name, text })));
    await fc.assert(
      fc.asyncProperty(
        calls,
        fc.array(fc.array(fc.nat({ max: 200 }), { maxLength: 4 }), { minLength: 4, maxLength: 4 }),
        fc.array(fc.nat(), { minLength: 24, maxLength: 24 }),
        fc.array(fc.boolean(), { minLength: 24, maxLength: 24 }),
        async (sent, cuts, picks, together) => {
          const plain = await modelEvents(stream(sent, cuts, false).chunks);
          const { chunks, ends } = interleaved(sent, cuts, picks, together);
          const events = await modelEvents(chunks);
          const callsOf = (list: typeof events) => list.flatMap(({ event }) => (event.type === "tool_call" ? [event.call] : []));
          expect(callsOf(events)).toEqual(callsOf(plain));
          expect(events.at(-1)?.event).toEqual({ type: "finish", reason: "tool_calls" });
          // Never before its last delta: a call that starts early starts with all of its arguments.
          for (const { event, sent: at } of events) if (event.type === "tool_call") expect(at).toBeGreaterThanOrEqual(ends.get(event.call.id) as number);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

/**
 * The deltas of `calls` (each at its own index, its first delta with its id and name) merged in
 * an order `picks` chooses, each call's own deltas in order, each call begun after the one
 * before it; `together` puts a delta in the same
 * chunk as the one before it. `ends` counts the chunks up to each call's last delta.
 */
function interleaved(
  calls: readonly Sent[],
  cuts: readonly (readonly number[])[],
  picks: readonly number[],
  together: readonly boolean[],
): { chunks: ChatCompletionChunkLike[]; ends: Map<string, number> } {
  type Delta = NonNullable<ChatCompletionChunkLike["choices"][number]["delta"]["tool_calls"]>[number];
  const queues: Delta[][] = calls.map((call, index) =>
    split(call.text, cuts[index] ?? []).map((part, j) =>
      j === 0 ? { index, id: call.id, type: "function", function: { name: call.name, arguments: part } } : { index, function: { arguments: part } },
    ),
  );
  const chunks: ChatCompletionChunkLike[] = [chunk({ role: "assistant", content: null } as never)];
  const ends = new Map<string, number>();
  let step = 0;
  let begun = 0;
  for (;;) {
    // Calls begin in index order (an index is the call's rank); after that their deltas mix freely.
    const open = queues.flatMap((q, index) => (q.length > 0 && index <= begun ? [index] : []));
    if (open.length === 0) break;
    const index = open[(picks[step % picks.length] ?? 0) % open.length] as number;
    if (index === begun) begun++;
    const delta = queues[index]?.shift() as Delta;
    const last = chunks.at(-1)?.choices[0]?.delta.tool_calls;
    if (together[step % together.length] === true && last !== undefined) (last as Delta[]).push(delta);
    else chunks.push(chunk({ tool_calls: [delta] }));
    if (queues[index]?.length === 0) ends.set(calls[index]?.id as string, chunks.length);
    step++;
  }
  chunks.push(chunk({}, "tool_calls"));
  return { chunks, ends };
}
