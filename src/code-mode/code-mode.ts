import { askUser, defineTool, error, streamToolCalls, type HandlerContext, type HandlerResult, type SubagentState, type Tool } from "../index.js";
import { SUBAGENT_RESUME } from "../internal.js";
import { CodeModeError } from "./code-mode-error.js";
import { checkCodeModeOptions, type CodeModeOptions } from "./code-mode-options.js";
import { isScriptRecord } from "./replay-record.js";
import { SandboxPool } from "./sandbox-pool.js";
import { scriptResumeOf } from "./script-resume.js";
import { runScript } from "./script-run.js";
import { toolDeclarations } from "./tool-declarations.js";

/** The code-mode tool and its sandbox threads. See {@link codeMode}. */
export interface CodeMode {
  /** The one tool to give the model: its input is `{ script }`, its description the tools' declarations. */
  readonly tool: Tool<{ script: string }>;
  /** The TypeScript declarations of `tools`, as the tool's description shows them. */
  readonly declarations: string;
  /** Start the sandbox threads now instead of on the first script; resolves once they are ready. */
  warm(): Promise<void>;
  /** End the sandbox threads; a script still running ends `killed`. */
  close(): Promise<void>;
}

const GUIDE =
  "Run a JavaScript script (the body of an async function: use await, end with return) that calls the tools below as `await tools.<name>(args)` and returns a JSON value. Only the final value comes back to you, so do the intermediate work in the script. A failed call throws a ToolCallError with `tool`, `reason` and `message`; catch it to go on. There is no network, file system, timer, `require` or `import`; Date.now() is fixed and Math.random() is seeded.";

const SCHEMA = {
  type: "object",
  properties: { script: { type: "string", description: "The body of an async JavaScript function; its return value is the result." } },
  required: ["script"],
  additionalProperties: false,
} as const;

const utf8 = new TextEncoder();

/**
 * Code mode: one tool whose input is a script that calls `tools`, run in a QuickJS (WebAssembly)
 * sandbox in a worker thread, with no file system, network, timers or host objects but the tool
 * functions. Every nested `await tools.x(args)` is a call of the batch runner (`run` options):
 * its own deadline, limits, hooks, retries, approvals and closed errors, thrown into the script
 * as a `ToolCallError` with `reason`; its events reach the parent's stream as nested events
 * (`subagent_event` in the agent loop).
 *
 * A nested call that needs approval or asks the user halts the parent as a subagent's does
 * (`ask_user` with `opts.subagent`: `haltedReason` `"approval_required"` with its
 * `pendingApprovals`, or `"ask_user"` with the nested `pendingQuestion`); appending the decisions
 * or the answer and calling the parent again re-runs the script, answering the calls it made
 * before from the halt's record instead of running them again. A nested handler's own halt halts
 * the parent with its reason and result, as a subagent's does.
 *
 * @throws {TypeError} naming the option.
 * @example
 * const code = codeMode({ tools: [weather, forecast], run: { toolTimeout: 5_000 } });
 * const result = await runAgent({ model, tools: [code.tool], messages });
 * await code.close();
 */
export function codeMode(options: CodeModeOptions): CodeMode {
  const { limits, name, threads } = checkCodeModeOptions(options);
  const tools = [...options.tools];
  const run = { ...options.run };
  const stream = options.stream ?? streamToolCalls;
  const declarations = toolDeclarations(tools);
  const pool = new SandboxPool(threads);
  const handler = async ({ script }: { script: string }, ctx: HandlerContext): Promise<HandlerResult> => {
    const bytes = utf8.encode(script).length;
    if (bytes > limits.maxScriptBytes) return error(new CodeModeError("script_too_large", `${bytes} bytes, over ${limits.maxScriptBytes}`));
    const resume = ctx.toolCall.metadata?.[SUBAGENT_RESUME] as SubagentState | undefined;
    const record = resume?.metadata.codeMode;
    if (resume !== undefined && !isScriptRecord(record))
      return error(new CodeModeError("diverged", "the halt's record of nested calls is missing or malformed"));
    const resumed = resume !== undefined && isScriptRecord(record) ? scriptResumeOf(resume, record) : undefined;
    const end = await runScript({
      tools,
      stream,
      pool,
      limits,
      run,
      script,
      ctx,
      record: resumed?.record,
      approvals: resumed?.approvals ?? [],
      continuation: resumed?.continuation,
    });
    if (end.type === "result") return end.result;
    const { pending, question } = end;
    const asks = question === undefined ? {} : { pendingQuestion: question.question, pendingToolCallId: question.toolCallId, askUserOpts: question.opts };
    const subagent: SubagentState = {
      tool: name,
      haltedReason: question === undefined ? "approval_required" : "ask_user",
      metadata: { ...asks, ...(question === undefined || pending.length > 0 ? { pendingApprovals: pending } : {}), codeMode: end.record },
      messages: [],
      round: resume === undefined ? 0 : resume.round + 1,
    };
    return askUser(question?.question ?? `Approval required for ${pending.map((p) => p.toolName).join(", ")}`, { subagent });
  };
  const description = `${options.description ?? GUIDE}\n\n${declarations}`;
  const tool = defineTool({ name, description, schema: SCHEMA, handler });
  return {
    tool: tool as unknown as Tool<{ script: string }>,
    declarations,
    warm: () => pool.warm(),
    close: () => pool.close(),
  };
}
