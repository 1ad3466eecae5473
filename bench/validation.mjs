#!/usr/bin/env node
/**
 * What validating a call's arguments costs inside toolrx, against the validator alone, for each
 * kind of schema toolrx accepts: zod, JSON Schema (@cfworker/json-schema), and Standard Schema
 * (ArkType, Valibot through toStandardJsonSchema).
 *
 *   npm run bench:validation             (builds first; about a minute)
 *   node bench/validation.mjs --quick    (fewer rounds)
 *
 * Each kind runs in a process of its own (an application usually has one schema library, and
 * one kind's code must not make the call sites another kind goes through polymorphic). There,
 * each round measures CPU time (process.cpuUsage) for N valid argument objects:
 *   alone      the validator itself, called as toolrx calls it
 *   in toolrx  `checkArguments(tool, call)`: exactly what the runner does before the handler
 * The wrapper's cost is in toolrx / alone - 1 per round, median over rounds; target: at most
 * +10%. The two alternate within each round, so drift on a shared machine falls on both alike.
 */
import { Validator } from "@cfworker/json-schema";
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import * as v from "valibot";
import { z } from "zod";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { checkArguments, defineTool } from "../dist/index.js";

const quick = process.argv.includes("--quick");
const ROUNDS = quick ? 15 : 41;
const CALLS = 20_000;
const CHUNK = 2_000;
const WARMUP_ROUNDS = 3;

const jsonSchema = {
  type: "object",
  properties: {
    city: { type: "string", minLength: 1 },
    unit: { enum: ["c", "f"] },
    days: { type: "integer", minimum: 1, maximum: 14 },
    tags: { type: "array", items: { type: "string" } },
  },
  required: ["city", "unit", "days", "tags"],
};

const zodSchema = z.object({ city: z.string().min(1), unit: z.enum(["c", "f"]), days: z.number().int().min(1).max(14), tags: z.array(z.string()) });
const arkSchema = type({ city: "string > 0", unit: "'c' | 'f'", days: "1 <= number.integer <= 14", tags: "string[]" });
const valibotSchema = toStandardJsonSchema(
  v.object({
    city: v.pipe(v.string(), v.minLength(1)),
    unit: v.picklist(["c", "f"]),
    days: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(14)),
    tags: v.array(v.string()),
  }),
);
const cfworker = new Validator(structuredClone(jsonSchema), "2020-12");

// Standard Schema's props are read once, as toolrx reads them when the tool is defined.
const arkStandard = arkSchema["~standard"];
const valibotStandard = valibotSchema["~standard"];

/**
 * Where each validator's result goes: a caller uses it (toolrx hands it to the handler), so it
 * must not be a value the JIT can see is dropped and never allocate.
 */
let kept;

/** What each kind's validator does alone, called the way toolrx calls it, its output kept. */
const KINDS = [
  {
    name: "zod",
    schema: zodSchema,
    alone: (args) => {
      kept = zodSchema.safeParse(args);
      return kept.success;
    },
  },
  {
    name: "JSON Schema (cfworker)",
    schema: jsonSchema,
    alone: (args) => {
      kept = cfworker.validate(args);
      return kept.valid;
    },
  },
  {
    name: "ArkType (Standard Schema)",
    schema: arkSchema,
    alone: (args) => {
      kept = arkStandard.validate(args);
      return kept.issues === undefined;
    },
  },
  {
    name: "Valibot (Standard Schema)",
    schema: valibotSchema,
    alone: (args) => {
      kept = valibotStandard.validate(args);
      return kept.issues === undefined;
    },
  },
];

const argsList = Array.from({ length: CALLS }, (_, i) => ({ city: `city ${i}`, unit: i % 2 ? "c" : "f", days: 1 + (i % 14), tags: ["a", "b"] }));
const calls = argsList.map((args, i) => ({ id: `c${i}`, name: "weather", arguments: args }));

function cpuNs(fn) {
  const start = process.cpuUsage();
  fn();
  const spent = process.cpuUsage(start);
  return (spent.user + spent.system) * 1_000;
}

const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

function measure(kind) {
  const tool = defineTool({ name: "weather", description: "", schema: kind.schema });
  const rounds = [];
  let valid = 0;
  const aloneChunk = (from, to) => {
    for (let i = from; i < to; i++) if (kind.alone(argsList[i])) valid++;
  };
  const toolrxChunk = (from, to) => {
    for (let i = from; i < to; i++) {
      kept = checkArguments(tool, calls[i]);
      if (kept.ok) valid++;
    }
  };
  for (let r = 0; r < WARMUP_ROUNDS + ROUNDS; r++) {
    let alone = 0;
    let inToolrx = 0;
    // Short alternating chunks, each after a collection, so a GC pause or a neighbour's burst
    // lands on both sides alike instead of on one whole measurement.
    for (let from = 0; from < CALLS; from += CHUNK) {
      const to = Math.min(CALLS, from + CHUNK);
      const [first, second] = (from / CHUNK) % 2 ? ["toolrx", "alone"] : ["alone", "toolrx"];
      for (const side of [first, second]) {
        globalThis.gc?.();
        const ns = cpuNs(() => (side === "alone" ? aloneChunk(from, to) : toolrxChunk(from, to)));
        if (side === "alone") alone += ns;
        else inToolrx += ns;
      }
    }
    if (r >= WARMUP_ROUNDS) rounds.push({ alone: alone / CALLS, inToolrx: inToolrx / CALLS, overhead: inToolrx / alone - 1 });
  }
  if (valid !== 2 * CALLS * (WARMUP_ROUNDS + ROUNDS)) throw new Error(`${kind.name}: valid arguments were refused`);
  return {
    kind: kind.name,
    aloneNs: median(rounds.map((r) => r.alone)),
    inToolrxNs: median(rounds.map((r) => r.inToolrx)),
    overhead: median(rounds.map((r) => r.overhead)),
  };
}

const kindArg = process.argv.find((a) => a.startsWith("--kind="));
if (kindArg !== undefined) {
  const kind = KINDS.find((k) => k.name === kindArg.slice("--kind=".length));
  process.stdout.write(JSON.stringify(measure(kind)));
  process.exit(0);
}

const self = fileURLToPath(import.meta.url);
const rows = KINDS.map((kind) =>
  JSON.parse(execFileSync(process.execPath, ["--expose-gc", self, `--kind=${kind.name}`, ...(quick ? ["--quick"] : [])], { encoding: "utf8" })),
);

const pad = (s, n) => String(s).padEnd(n);
console.log(
  `Argument validation, CPU time per valid call (median of ${ROUNDS} paired rounds of ${CALLS.toLocaleString("en")} calls, Node ${process.versions.node})\n`,
);
console.log(`${pad("schema", 28)}${pad("validator alone", 18)}${pad("in toolrx", 14)}wrapper adds`);
for (const row of rows) {
  const sign = row.overhead >= 0 ? "+" : "";
  console.log(
    `${pad(row.kind, 28)}${pad(`${row.aloneNs.toFixed(0)} ns`, 18)}${pad(`${row.inToolrxNs.toFixed(0)} ns`, 14)}${sign}${(row.overhead * 100).toFixed(1)}%`,
  );
}
console.log("\ntarget: the wrapper adds at most +10% to the validator alone");
