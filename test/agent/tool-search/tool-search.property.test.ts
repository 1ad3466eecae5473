import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ok, toolSearch, type Tool } from "../../../src/index.js";
import { fuseRanks, rankingOf } from "../../../src/agent/tool-search/rank-fusion.js";

const WORDS = ["refund", "charge", "deploy", "scale", "pod", "email", "send", "invoice", "ticket", "merge", "log", "user"];

/** Tools with distinct names made of catalog words, each with an embedding of its own. */
const catalogArb = fc
  .uniqueArray(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...WORDS), fc.nat({ max: 9 })), {
    minLength: 2,
    maxLength: 12,
    selector: ([a, b, n]) => `${a}_${b}_${n}`,
  })
  .chain((names) =>
    fc.record({
      tools: fc.constant(names.map(([a, b, n]) => ({ name: `${a}_${b}_${n}`, description: `${b} the ${a} ${WORDS[n] ?? ""}` }))),
      vectors: fc.array(fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 3, maxLength: 3 }), {
        minLength: names.length,
        maxLength: names.length,
      }),
      query: fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 3, maxLength: 3 }),
    }),
  );

function searchOf(c: { tools: { name: string; description: string }[]; vectors: number[][]; query: number[] }, order: "given" | "reversed" = "given") {
  const tools: Tool[] = c.tools.map(({ name, description }) => defineTool({ name, description, schema: z.object({}), handler: () => ok(name) }));
  const byName = new Map(c.tools.map((t, i) => [t.name, c.vectors[i] as number[]]));
  // A tool's text starts with its name and a newline; anything else is the query.
  const embed = async (texts: readonly string[]) => texts.map((t) => (t.includes("\n") ? (byName.get(t.split("\n")[0] as string) ?? [0, 0, 1]) : c.query));
  return toolSearch({ tools: order === "given" ? tools : [...tools].reverse(), embed, maxResults: 5 });
}

describe("toolSearch's hybrid ranking (property)", () => {
  it("puts the tool a query names exactly first, whatever the embedding says", async () => {
    await fc.assert(
      fc.asyncProperty(catalogArb, fc.nat(), fc.boolean(), async (c, pick, upper) => {
        const named = c.tools[pick % c.tools.length]?.name as string;
        const matches = await searchOf(c).search(upper ? named.toUpperCase() : named);
        expect(matches[0]?.name).toBe(named);
      }),
    );
  });

  it("ranks the same whatever order the tools are given in", async () => {
    await fc.assert(
      fc.asyncProperty(catalogArb, fc.constantFrom(...WORDS), async (c, word) => {
        const given = await searchOf(c).search(word);
        const reversed = await searchOf(c, "reversed").search(word);
        expect(reversed.map((m) => m.name)).toEqual(given.map((m) => m.name));
      }),
    );
  });
});

describe("toolSearch's hybrid ranking", () => {
  it("ranks the same whatever the order of the tools, with vectors so small their norms' product underflows", async () => {
    // Found by the property above: a cosine of NaN or -Infinity made the sort depend on the order.
    const c = {
      tools: ["refund_refund_0", "refund_refund_1", "merge_refund_0", "refund_merge_0", "refund_merge_1", "refund_refund_2"].map((name) => ({
        name,
        description: `${name.replaceAll("_", " ")}`,
      })),
      vectors: [
        [0, 0, 0],
        [0, 0, 0],
        [0, 0, 0.07142857142857144],
        [0, 0, 0],
        [0, 0, 1.5717277847026288e-162],
        [0, 0, 0],
      ],
      query: [-1.5717277847026288e-162, 0, -3.5e-323],
    };
    const given = await searchOf(c).search("refund");
    expect((await searchOf(c, "reversed").search("refund")).map((m) => m.name)).toEqual(given.map((m) => m.name));
    expect(given.every((m) => Number.isFinite(m.score))).toBe(true);
  });
});

describe("fuseRanks (property)", () => {
  /** Two rankings of the same items, each a permutation of a subset. */
  const rankingsArb = fc.integer({ min: 1, max: 15 }).chain((size) =>
    fc.record({
      size: fc.constant(size),
      a: fc.shuffledSubarray([...Array(size).keys()]),
      b: fc.shuffledSubarray([...Array(size).keys()]),
    }),
  );
  const rankIn = (ranking: readonly number[], item: number) => {
    const r = ranking.indexOf(item);
    return r === -1 ? Number.POSITIVE_INFINITY : r;
  };

  it("never ranks an item below one it beats or ties in every ranking", () => {
    fc.assert(
      fc.property(rankingsArb, ({ size, a, b }) => {
        const fused = fuseRanks([a, b], size);
        for (let x = 0; x < size; x++)
          for (let y = 0; y < size; y++)
            if (rankIn(a, x) <= rankIn(a, y) && rankIn(b, x) <= rankIn(b, y)) expect(fused[x] as number).toBeGreaterThanOrEqual(fused[y] as number);
      }),
    );
  });

  it("puts first an item first in both rankings", () => {
    fc.assert(
      fc.property(rankingsArb, ({ size, a, b }) => {
        const top = a[0];
        fc.pre(top !== undefined && b[0] === top);
        const fused = fuseRanks([a, b], size);
        expect(rankingOf(fused, [...Array(size).keys()].map(String), (s) => s > 0)[0]).toBe(top);
      }),
    );
  });
});
