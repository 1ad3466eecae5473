/**
 * Tool calls run while the model is still talking. A scripted model streams text deltas and,
 * midway, tool calls; the calls go straight into `streamToolCalls` as an Observable, and one
 * merged stream of model and tool events is printed as it happens.
 *
 * Run: npm run example:compose
 */
import { concatMap, delay, filter, from, map, merge, of, share, type Observable } from "rxjs";
import { z } from "zod";
import { defineTool, ok, streamToolCalls, type ToolCall, type ToolEvent } from "../src/index.js";

type ModelEvent = { type: "text_delta"; text: string } | { type: "tool_call"; call: ToolCall } | { type: "done" };

/** A scripted model turn: no network, no key; each chunk arrives 40 ms after the previous one. */
function scriptedModel(): Observable<ModelEvent> {
  const script: ModelEvent[] = [
    { type: "text_delta", text: "Let me look " },
    { type: "tool_call", call: { id: "call_1", name: "weather", arguments: { city: "Lisbon" } } },
    { type: "text_delta", text: "that up for " },
    { type: "tool_call", call: { id: "call_2", name: "weather", arguments: { city: "Oslo" } } },
    { type: "text_delta", text: "both cities " },
    { type: "text_delta", text: "while the tools run." },
    { type: "done" },
  ];
  return from(script).pipe(concatMap((event) => of(event).pipe(delay(40))));
}

const weather = defineTool({
  name: "weather",
  description: "Weather by city",
  schema: z.object({ city: z.string() }),
  handler: async ({ city }) => {
    await new Promise((resolve) => setTimeout(resolve, city === "Oslo" ? 150 : 60));
    return ok({ city, tempC: city === "Oslo" ? 4 : 19 });
  },
});

const model$ = scriptedModel().pipe(share());
const calls$ = model$.pipe(
  filter((e): e is Extract<ModelEvent, { type: "tool_call" }> => e.type === "tool_call"),
  map((e) => e.call),
);

const t0 = performance.now();
const at = () => `[${String(Math.round(performance.now() - t0)).padStart(4)} ms]`;

const describeTool = (e: ToolEvent): string => {
  switch (e.type) {
    case "tool_execution_started":
      return `started ${JSON.stringify(e.arguments)}`;
    case "tool_execution_completed":
      return `completed (${e.result.type})`;
    case "tool_result_encoded":
      return `content ${e.content}`;
    case "ask_user_requested":
      return `asks: ${e.question}`;
    case "tool_halt":
      return `halt: ${e.reason}`;
  }
};

merge(
  model$.pipe(
    map((e) =>
      e.type === "text_delta" ? `model  ${JSON.stringify(e.text)}` : e.type === "done" ? "model  (turn done)" : `model  calls ${e.call.name} #${e.call.id}`,
    ),
  ),
  streamToolCalls(calls$, [weather]).pipe(map((e) => `tool   ${e.toolName} #${e.toolCallId} ${describeTool(e)}`)),
).subscribe({
  next: (line) => console.log(`${at()} ${line}`),
  complete: () => console.log(`${at()} all model and tool events done`),
});
