import { config } from "rxjs";

/**
 * Hand an error nobody can receive (a throwing `onCallReport` listener, a dropped progress
 * payload) to the one place a host routes such errors: RxJS's `config.onUnhandledError`, as RxJS
 * does for an observer that throws. Without a handler it is rethrown on its own task, so it is
 * seen (Node's `uncaughtException`, the browser's `error` event) and breaks nothing that runs.
 * The handler is read when the error is delivered, as RxJS reads it.
 */
export function reportUnhandled(error: unknown): void {
  setTimeout(() => {
    const { onUnhandledError } = config;
    if (onUnhandledError == null) throw error;
    onUnhandledError(error);
  });
}
