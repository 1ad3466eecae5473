import { z } from "zod";
import { askUser, defineTool, type Message, type Model, ok, type Tool } from "../../src/index.js";

/**
 * The thread both UI sweeps drive (useChat's in use-chat-sweep.ts, AG-UI's HttpAgent in
 * ag-ui-sweep.ts): a model that does what the user's words say, so a random sequence of a
 * user's actions is a random sequence of approvals, questions and failures. A word that names
 * one of `calls` is a call of that tool (`pay` with `{ eur: 5 }`), `both` pays and asks, and
 * anything else gets a text reply that says what it answers (`OK (user)`, `OK (tool, failed)`).
 * Call ids count up per model: `pay-1`, `ask-2`, …
 */
export function wordsModel(calls: readonly string[]): Model {
  let n = 0;
  const call = (name: string) => ({ type: "tool_call" as const, call: { id: `${name}-${++n}`, name, arguments: name === "pay" ? { eur: 5 } : {} } });
  return async function* (request) {
    const last = request.messages.at(-1) as Message;
    const words = last.role === "user" ? last.content : "";
    if (calls.includes(words)) yield call(words);
    else if (words === "both") yield* [call("pay"), call("ask")];
    else yield { type: "text_delta", text: `OK (${last.role}${last.role === "tool" && last.isError ? ", failed" : ""})` };
    yield { type: "finish", reason: "stop" };
  };
}

/** The tools every words thread has: `pay`, which needs approval and records each run in `ran`, and `ask`, which asks the user. */
export function wordsTools(ran: string[]): Tool[] {
  return [
    defineTool({
      name: "pay",
      description: "Pay",
      schema: z.object({ eur: z.number() }),
      needsApproval: true,
      handler: ({ eur }, ctx) => {
        ran.push(ctx.toolCall.id);
        return ok(`paid ${eur}`);
      },
    }),
    defineTool({ name: "ask", description: "Ask", schema: z.object({}), handler: () => askUser("Which city?") }),
  ];
}
