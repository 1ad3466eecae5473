import type { AGUIEvent, EventType } from "@ag-ui/core";
import { Observable, type OperatorFunction } from "rxjs";
import type { AgentEvent, Message } from "../index.js";
import { EventWriter } from "./event-writer.js";

/** Options of {@link toAgUiEvents}: the ids the AG-UI client gave the run (`RunAgentInput`). */
export interface AgUiEventsOptions {
  readonly threadId: string;
  readonly runId: string;
  /** The conversation the run started from (the run's `messages`): its calls are on the client already. */
  readonly messages?: readonly Message[];
  /** The text a client gets for a run that ended with `error`. Default: `"An error occurred."`. */
  readonly onError?: (error: unknown) => string;
}

/**
 * Turn `streamAgent`'s events into AG-UI events (`@ag-ui/core` 1.0): `RUN_STARTED`, one step per
 * turn, the model's reasoning as a reasoning span (`REASONING_START`, a reasoning message per
 * piece, its provider state as `REASONING_ENCRYPTED_VALUE`, `REASONING_END`), its text as a text
 * message, each call as `TOOL_CALL_START`/`ARGS`/`END` (its
 * arguments as they stream) then `TOOL_CALL_RESULT`, progress and call reports as `CUSTOM`
 * events (`toolrx.progress`, `toolrx.call_report`, `toolrx.subagent_event`), and `RUN_FINISHED`
 * with the usage. Pending approvals and questions end the run with an `interrupt` outcome (ids
 * `approval:<toolCallId>`, `ask:<toolCallId>`; an approval carries its token in `metadata`);
 * manual calls are left without a result, as frontend tools are. An `error` ends it with
 * `RUN_ERROR`, a cancelled run with the `cancelled` outcome.
 *
 * @example
 * const input = RunAgentInputSchema.parse(await req.json());
 * const options = { model, tools, messages: fromRunAgentInput(input) };
 * streamAgent(options).pipe(toAgUiEvents(input)).subscribe((e) => res.write(`data: ${JSON.stringify(e)}\n\n`));
 */
export function toAgUiEvents(options: AgUiEventsOptions): OperatorFunction<AgentEvent<string>, AGUIEvent> {
  if (options === null || typeof options !== "object") throw new TypeError("Expected `options` of `toAgUiEvents` to be an object with `threadId` and `runId`");
  const { threadId, runId, messages = [], onError = () => "An error occurred." } = options;
  if (!Array.isArray(messages)) throw new TypeError("Expected `messages` of `toAgUiEvents` to be an array of messages");
  if (typeof threadId !== "string") throw new TypeError("Expected `threadId` of `toAgUiEvents` to be a string");
  if (typeof runId !== "string") throw new TypeError("Expected `runId` of `toAgUiEvents` to be a string");
  if (typeof onError !== "function") throw new TypeError("Expected `onError` of `toAgUiEvents` to be a function");
  return (source) =>
    new Observable<AGUIEvent>((subscriber) => {
      const writer = new EventWriter((e) => subscriber.next(e), threadId, runId, onError, messages);
      subscriber.next({ type: "RUN_STARTED" as EventType.RUN_STARTED, threadId, runId });
      return source.subscribe({ next: (e) => writer.write(e), error: (e: unknown) => subscriber.error(e), complete: () => subscriber.complete() });
    });
}
