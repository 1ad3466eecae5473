import { Observable } from "rxjs";
import type { ModelEvent, ModelRequest } from "../../src/index.js";

/**
 * A model whose call ids are random per request, as OpenAI's are: one `pay` call (5 cents) on
 * turn 0, then an answer. A restart that asked it again would get other ids, so a journal test
 * sees whether the recorded reply was replayed. `asked` lists the turn of each request.
 */
export function randomIdModel(): { fn: (request: ModelRequest) => Observable<ModelEvent>; asked: number[] } {
  const asked: number[] = [];
  const fn = (request: ModelRequest) =>
    new Observable<ModelEvent>((subscriber) => {
      const k = request.messages.filter((m) => m.role === "assistant").length;
      asked.push(k);
      if (k === 0) subscriber.next({ type: "tool_call", call: { id: `call_${Math.random().toString(36).slice(2)}`, name: "pay", arguments: { cents: 5 } } });
      else subscriber.next({ type: "text_delta", text: "paid" });
      subscriber.complete();
    });
  return { fn, asked };
}
