import type { Observable, OperatorFunction } from "rxjs";
import { expectTypeOf, test } from "vitest";
import { z } from "zod";
import {
  defineTool,
  executeToolCalls,
  ok,
  runAgent,
  streamAgent,
  type AgentEvent,
  type AgentResult,
  type Tool,
  type ToolCall,
  type ToolEvent,
} from "../../src/index.js";
import type { ApprovalContext } from "../../src/tool/approval/needs-approval.js";
import { scriptedModel, type ScriptedModel } from "../../src/testing/index.js";

test("needsApproval gets the schema's output type, and typed tools still go in one list", () => {
  const transfer = defineTool({
    name: "transfer",
    description: "",
    schema: z.object({ eur: z.number(), note: z.string().default("") }),
    needsApproval: (args, ctx) => {
      expectTypeOf(args).toEqualTypeOf<{ eur: number; note: string }>();
      expectTypeOf(ctx).toEqualTypeOf<ApprovalContext>();
      return args.eur > 100;
    },
    handler: ({ eur }) => ok(eur),
  });
  defineTool({
    name: "t",
    description: "",
    schema: z.object({ eur: z.number() }),
    // @ts-expect-error: `cents` is not an argument
    needsApproval: (args) => args.cents > 1,
  });
  const other = defineTool({ name: "o", description: "", schema: z.object({}), needsApproval: true });
  const tools: readonly Tool[] = [transfer, other];
  expectTypeOf(tools).toMatchTypeOf<readonly Tool[]>();
});

test("streamAgent and runAgent", () => {
  const model = scriptedModel([]);
  expectTypeOf(model).toEqualTypeOf<ScriptedModel>();
  expectTypeOf(streamAgent({ model, tools: [], messages: [] })).toEqualTypeOf<Observable<AgentEvent>>();
  expectTypeOf(runAgent({ model, tools: [], messages: [] })).toEqualTypeOf<Promise<AgentResult>>();
  // @ts-expect-error: messages are required
  streamAgent({ model, tools: [] });
  // @ts-expect-error: mode is "auto" or "manual"
  streamAgent({ model, tools: [], messages: [], mode: "semi" });
});

test("AgentEvent is discriminated by type", () => {
  const describe = (e: AgentEvent): string => {
    switch (e.type) {
      case "turn_started":
        return String(e.turn);
      case "text_delta":
        return e.text;
      case "tool_event":
        expectTypeOf(e.event).toEqualTypeOf<ToolEvent>();
        return e.event.type;
      case "turn_completed":
        return String(e.messages.length);
      case "agent_halted":
        return e.haltedReason;
      case "tool_input":
        return e.text;
      case "call_report":
        return e.report.type;
      case "subagent_event":
        return e.event.type;
      case "model_reply":
        expectTypeOf(e.message.toolCalls).toEqualTypeOf<readonly ToolCall[] | undefined>();
        return e.finishReason;
      case "reasoning":
        // A delta carries its text, a complete piece the part the message keeps.
        return e.state === "delta" ? e.text : (e.part.provider ?? e.part.text);
      default: {
        const exhaustive: never = e;
        return exhaustive;
      }
    }
  };
  expectTypeOf(describe).returns.toEqualTypeOf<string>();
});

test("executeToolCalls is an operator from calls to events", () => {
  expectTypeOf(executeToolCalls([])).toEqualTypeOf<OperatorFunction<ToolCall, ToolEvent>>();
});
