/** A call held while the host answers its server's question. */
export interface Holdable {
  /** The host did not answer in time: tell the server, and let the call go. */
  expire(): void;
}

const held = new Map<string, { call: Holdable; timer: ReturnType<typeof setTimeout> }>();
let count = 0;

/**
 * Keep `call` for `holdFor` ms, under a key that the `ask_user` carries (`opts.mcp.held`) and the
 * resumed call brings back. Held calls live in this process only: a process started again finds
 * none, and a task call re-attaches by its task id instead.
 */
export function holdCall(call: Holdable, holdFor: number): string {
  const key = `held-${++count}-${Math.random().toString(36).slice(2, 10)}`;
  const timer = setTimeout(() => {
    held.delete(key);
    call.expire();
  }, holdFor);
  // A held call must not keep a command-line process alive on its own.
  (timer as { unref?: () => void }).unref?.();
  held.set(key, { call, timer });
  return key;
}

/** The call held under `key`, no longer held; `undefined` when there is none (expired, or another process). */
export function takeHeld<T extends Holdable>(key: string): T | undefined {
  const entry = held.get(key);
  if (entry === undefined) return undefined;
  held.delete(key);
  clearTimeout(entry.timer);
  return entry.call as T;
}
