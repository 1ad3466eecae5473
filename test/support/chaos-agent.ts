import { appendFileSync, writeFileSync } from "node:fs";
import { Observable } from "rxjs";
import { z } from "zod";
import {
  type AgentEvent,
  askUser,
  defineTool,
  type HandlerResult,
  type JournalEntry,
  type Message,
  type ModelEvent,
  type ModelRequest,
  ok,
  type Tool,
} from "../../src/index.js";

/** Where an agent process of a durable chaos property SIGKILLs itself: the `nth` time (from 0) it reaches `point`. */
export interface ChaosKill<Point extends string> {
  readonly point: Point;
  readonly nth: number;
}

/** The kill points every durable chaos agent has; a store may add its own (BullMQ's `spend`). */
export type ChaosKillPoint = "streaming" | "reply" | "tool" | "outcome" | "halt";

/** One call of a chaos script: its number (unique across scenarios) and its tool, by kind. */
export interface ChaosCall<Kind extends string> {
  readonly n: number;
  readonly kind: Kind;
}

/** What a chaos agent process is given (one JSON argument), besides where its store is. */
export interface ChaosSetup<Kind extends string, Point extends string> {
  readonly key: string;
  readonly effects: string;
  readonly plan: readonly (readonly ChaosCall<Kind>[])[];
  readonly messages: readonly Message[];
  readonly kill: ChaosKill<Point> | null;
  readonly out: string;
  readonly violations: string;
}

/**
 * What the agent processes of the durable chaos properties (test/bullmq/fixtures/chaos-agent.ts,
 * test/postgres/fixtures/pg-chaos-agent.ts) share, so both drive the agent loop alike: the
 * process's kill switch, the scripted model that reports a recorded turn asked again, the tools
 * that log their effects, and the events the kill points hang on.
 */
export function killSwitch<Point extends string>(kill: ChaosKill<Point> | null): (point: Point, delay?: number) => void {
  const seen = new Map<Point, number>();
  return (point, delay = 0) => {
    const count = seen.get(point) ?? 0;
    seen.set(point, count + 1);
    if (kill?.point !== point || kill.nth !== count) return;
    const die = () => process.kill(process.pid, "SIGKILL");
    if (delay === 0) die();
    else setTimeout(die, delay);
  };
}

/**
 * A handler that takes 150 ms and logs `<label> <n>` to the effects file, before its work (an
 * effect that happened even if the process dies) or after it (one that completed).
 */
export const slowEffect =
  (effects: string, label: string, before = true) =>
  async ({ n }: { n: number }) => {
    if (before) appendFileSync(effects, `${label} ${n}\n`);
    await new Promise((r) => setTimeout(r, 150));
    if (!before) appendFileSync(effects, `${label} ${n}\n`);
    return ok(`${label} ${n} done`);
  };

const schema = z.object({ n: z.number() });

/**
 * The tools every chaos script has: a local effect, an idempotent one, one that needs approval, and
 * one that asks the user. `effect` makes the first three's handlers: by default {@link slowEffect}'s.
 */
export function chaosTools(
  effects: string,
  effect: (label: string) => (args: { n: number }) => HandlerResult | Promise<HandlerResult> = (label) => slowEffect(effects, label),
): Tool[] {
  return [
    defineTool({ name: "local", description: "", schema, handler: effect("local") }),
    defineTool({ name: "idempotent", description: "", schema, control: { idempotent: true }, handler: effect("idempotent") }),
    defineTool({ name: "approve", description: "", schema, needsApproval: true, handler: effect("approve") }),
    defineTool({
      name: "ask",
      description: "",
      schema,
      handler: ({ n }) => {
        appendFileSync(effects, `ask ${n}\n`);
        return askUser(`question ${n}?`);
      },
    }),
  ];
}

/** What the scripted model reads: the journal's key and entries, the script, and where it reports a violation. */
export interface ScriptSetup<Kind extends string> {
  readonly key: string;
  readonly plan: readonly (readonly ChaosCall<Kind>[])[];
  readonly violations: string;
}

/**
 * The model of a chaos script: turn k is the k-th reply of this script (its own replies start with
 * "turn"), with the script's calls under random ids. It checks the property as it is asked: a
 * turn with a reply or a call on record is never asked of the model again.
 */
export function scriptedModel<Kind extends string>(
  entries: (key: string) => Promise<readonly JournalEntry[]>,
  setup: ScriptSetup<Kind>,
  at: (point: "streaming", delay: number) => void,
): (request: ModelRequest) => Observable<ModelEvent> {
  return (request) =>
    new Observable<ModelEvent>((subscriber) => {
      const k = request.messages.filter((m) => m.role === "assistant" && m.content.startsWith("turn ")).length;
      void entries(setup.key).then((all) => {
        const run = all.map((e) => e.type).lastIndexOf("run");
        const recorded = all.slice(run + 1).some((e) => (e.type === "reply" || (e.type === "call" && e.phase === "model")) && e.turn === request.turn);
        if (recorded) appendFileSync(setup.violations, `asked again for turn ${request.turn} (script turn ${k})\n`);
        const calls = setup.plan[k];
        if (calls === undefined) {
          subscriber.next({ type: "text_delta", text: `done after ${k} turns` });
          subscriber.complete();
          return;
        }
        subscriber.next({ type: "text_delta", text: `turn ${k}` });
        for (const c of calls) {
          subscriber.next({ type: "tool_call", call: { id: `call_${Math.random().toString(36).slice(2, 10)}`, name: c.kind, arguments: { n: c.n } } });
        }
        at("streaming", 60);
        setTimeout(() => subscriber.complete(), 80);
      });
    });
}

/**
 * The agent's events the kill points hang on; at the end, the run's outcome is written to `out`
 * for the test and `close` lets the process exit.
 */
export function killPointsOf(at: (point: ChaosKillPoint, delay?: number) => void, out: string, close: () => Promise<unknown>): (e: AgentEvent) => void {
  return (e) => {
    if (e.type === "model_reply") at("reply");
    if (e.type === "tool_event" && e.event.type === "tool_execution_started") at("tool", 50);
    if (e.type === "tool_event" && (e.event.type === "tool_result_encoded" || e.event.type === "ask_user_requested" || e.event.type === "tool_halt"))
      at("outcome");
    if (e.type === "agent_halted") {
      at("halt");
      writeFileSync(out, JSON.stringify({ haltedReason: e.haltedReason, metadata: e.metadata, messages: e.messages }));
      void close().then(() => process.exit(0));
    }
  };
}
