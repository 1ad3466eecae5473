// What AI SDK 7's per-tool deadline (`timeout: { toolMs }`) does with a tool that takes 1.5 s,
// measured beside toolrx's `toolTimeout`: when the step can go on, whether the tool's signal
// aborted, and what the model is told. Run from the repository root: node bench/peers/ai-sdk-tool-timeout.mjs
import { generateText, jsonSchema, tool } from "ai";
import { MockLanguageModelV4 } from "ai/test";

const started = performance.now();
const at = () => Math.round(performance.now() - started);
const log = [];
const slow = (name, honours) =>
  tool({
    description: name,
    inputSchema: jsonSchema({ type: "object", properties: {} }),
    execute: (_input, { abortSignal }) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => resolve("finished"), 1500);
        abortSignal?.addEventListener("abort", () => {
          log.push(`${name}: signal aborted at ${at()} ms`);
          if (honours) {
            clearTimeout(timer);
            reject(abortSignal.reason);
          }
        });
      }),
  });
let turn = 0;
const model = new MockLanguageModelV4({
  doGenerate: async () => {
    turn++;
    if (turn === 1)
      return {
        content: [
          { type: "tool-call", toolCallId: "a", toolName: "honours", input: "{}" },
          { type: "tool-call", toolCallId: "b", toolName: "ignores", input: "{}" },
        ],
        finishReason: { unified: "tool-calls", raw: undefined },
        usage: { inputTokens: { total: 1 }, outputTokens: { total: 1 } },
        warnings: [],
      };
    return {
      content: [{ type: "text", text: "done" }],
      finishReason: { unified: "stop", raw: undefined },
      usage: { inputTokens: { total: 1 }, outputTokens: { total: 1 } },
      warnings: [],
    };
  },
});
const result = await generateText({
  model,
  tools: { honours: slow("honours", true), ignores: slow("ignores", false) },
  prompt: "go",
  timeout: { toolMs: 100 },
  stopWhen: ({ steps }) => steps.length >= 2,
});
const outputs = result.steps[0].content
  .filter((p) => p.type === "tool-result" || p.type === "tool-error")
  .map((p) => `${p.toolName}: ${p.type} ${p.type === "tool-error" ? String(p.error?.name ?? p.error) : JSON.stringify(p.output)}`);
console.log(JSON.stringify({ ai: (await import("ai/package.json", { with: { type: "json" } })).default.version, stepEndedAtMs: at(), outputs, log }, null, 1));
