import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ok, runAgent, type ContentPart, type ModelRequest } from "../../../src/index.js";
import { scriptedModel } from "../../../src/testing/index.js";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const image: ContentPart = { type: "image", mediaType: "image/png", data: PNG };

describe("the agent loop and content parts", () => {
  it("carries a user's parts and a tool result's parts into the next request, untouched", async () => {
    const requests: ModelRequest[] = [];
    const chart = defineTool({ name: "chart", description: "", schema: z.object({}), handler: () => ok("the chart", { parts: [image] }) });
    const model = scriptedModel([
      (request) => {
        requests.push(request);
        return [{ type: "tool_call", call: { id: "c1", name: "chart", arguments: {} } }];
      },
      (request) => {
        requests.push(request);
        return [{ type: "text_delta", text: "Sales are up." }];
      },
    ]);
    const result = await runAgent({ model, tools: [chart], messages: [{ role: "user", content: "Read this", parts: [image] }] });
    expect(result.haltedReason).toBe("completed");
    expect(requests[0]?.messages[0]).toEqual({ role: "user", content: "Read this", parts: [image] });
    expect(requests[1]?.messages.at(-1)).toEqual({ role: "tool", toolCallId: "c1", name: "chart", content: "the chart", isError: false, parts: [image] });
    expect(result.messages[2]).toEqual(requests[1]?.messages.at(-1));
  });

  it("refuses a conversation whose parts are malformed, or on a system message, before the model is asked", async () => {
    let asked = false;
    const model = () => {
      asked = true;
      return [];
    };
    const bad = await runAgent({
      model,
      tools: [],
      messages: [{ role: "user", content: "x", parts: [{ type: "image", mediaType: "image/png" } as ContentPart] }],
    }).catch((e: unknown) => e);
    expect(String(bad)).toMatch(/part 0 of `messages\[0\]` to have exactly one of `data`/);
    const system = await runAgent({ model, tools: [], messages: [{ role: "system", content: "x", parts: [image] } as never] }).catch((e: unknown) => e);
    expect(String(system)).toMatch(/`messages\[0\]\.parts` to be absent/);
    expect(asked).toBe(false);
  });
});
