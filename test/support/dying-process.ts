import type { ApprovalLedger, JournalStore } from "../../src/index.js";

/**
 * A simulated process for crash tests: the journal store and approval ledger it writes through,
 * and `kill()`, after which nothing it does reaches them again (each call hangs, as in a process
 * that is gone), while the stores themselves live on for the restart. Unlike unsubscribing, a
 * kill lets go of nothing: the lease stays taken and no cancel reaches a remote worker.
 */
export interface DyingProcess {
  readonly store: JournalStore;
  readonly ledger: ApprovalLedger | undefined;
  readonly dead: boolean;
  kill(): void;
}

const never = <T>(): Promise<T> => new Promise<T>(() => {});

export function dyingProcess(store: JournalStore, ledger?: ApprovalLedger): DyingProcess {
  let dead = false;
  const through =
    <A extends unknown[], R>(f: (...args: A) => R) =>
    (...args: A): R | Promise<never> => {
      if (dead) return never();
      const result = f(...args);
      // What the store answers after the kill never reaches the dead process either.
      return result instanceof Promise ? (result.then((r) => (dead ? never<R>() : r)) as R) : result;
    };
  return {
    store: {
      acquire: through(store.acquire.bind(store)),
      append: through(store.append.bind(store)),
      renew: through(store.renew.bind(store)),
      release: through(store.release.bind(store)),
    } as JournalStore,
    ledger: ledger === undefined ? undefined : { consume: through(ledger.consume.bind(ledger)) as ApprovalLedger["consume"] },
    get dead() {
      return dead;
    },
    kill() {
      dead = true;
    },
  };
}
