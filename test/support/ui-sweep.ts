import fc from "fast-check";

/** A client session a sweep walks: one user action at a time, then what the client's own judges say. */
export interface SweptSession<Action> {
  /** Do `action` if the client offers it now; what was done, or `""` when it was not offered. */
  act(action: Action): Promise<string>;
  /** What the client's judges say of the session now: nothing when all is well. */
  problems(): string[] | Promise<string[]>;
  /** A line on the client's state after an action, printed when `SWEEP_DEBUG` is set. */
  trace?(): string;
}

/** Walk `session` through `actions`, judging it after each one done; fails naming the actions that led to a problem. Returns what was done. */
export async function walk<Action>(session: SweptSession<Action>, actions: readonly Action[]): Promise<string[]> {
  const log: string[] = [];
  for (const action of actions) {
    const done = await session.act(action);
    if (done === "") continue;
    log.push(done);
    if (process.env.SWEEP_DEBUG && session.trace !== undefined) console.log(done, session.trace());
    const problems = await session.problems();
    if (problems.length > 0) throw new Error(`after ${log.join(" → ")}: ${problems.join("; ")}`);
  }
  return log;
}

/** A user's action: saying one of `words` (`send`, with `more`'s fields), or one of `kinds`. */
export function userAction<Word extends string, Kind extends string, More extends object = object>(
  words: readonly Word[],
  kinds: readonly Kind[],
  more?: { readonly [K in keyof More]: fc.Arbitrary<More[K]> },
): fc.Arbitrary<({ readonly kind: "send"; readonly text: Word } & More) | { readonly kind: Kind }> {
  const send = fc.record({ kind: fc.constant("send" as const), text: fc.constantFrom(...words), ...more }) as fc.Arbitrary<{ kind: "send"; text: Word } & More>;
  return fc.oneof(send, fc.record({ kind: fc.constantFrom(...kinds) }));
}

/**
 * Walk a fresh session (`session(n)`, the n-th) through each random sequence of up to 10 of
 * `action`: `TOOLRX_PROPERTY_RUNS` sequences (60 by default).
 */
export async function sweepRandomly<Action>(action: fc.Arbitrary<Action>, session: (n: number) => SweptSession<Action>): Promise<void> {
  let n = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 10 }), async (actions) => {
      await walk(session(n++), actions);
    }),
    { numRuns: Number(process.env.TOOLRX_PROPERTY_RUNS ?? 60) },
  );
}
