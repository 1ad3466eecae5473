import type { HttpAgent } from "@ag-ui/client";
import type { BaseEvent, Interrupt, ResumeEntry } from "@ag-ui/core";
import { z } from "zod";
import { defineTool } from "../../src/index.js";
import { AgUiRoute, agentOn, judgedRun } from "./ag-ui-route.js";
import type { SweptSession } from "./ui-sweep.js";
import { wordsModel, wordsTools } from "./words-thread.js";

/** What a user of an AG-UI client can do: say something, answer the open interrupts (approving or denying), write instead of answering, reload. */
export type ClientAction =
  | { readonly kind: "send"; readonly text: "pay" | "ask" | "fail" | "both" | "hello" }
  | { readonly kind: "approve" | "deny" | "type" | "reload" };

/**
 * A thread on toolrx's AG-UI route, through `@ag-ui/client`'s HttpAgent: a model that does what
 * the user's words say (`pay` needs approval, `ask` asks, `fail` fails, `both` pays and asks),
 * each run judged by the client's own `verifyEvents` and `@ag-ui/core`'s schemas.
 */
export class ClientSession implements SweptSession<ClientAction> {
  readonly ran: string[] = [];
  readonly route: AgUiRoute;
  agent: HttpAgent;
  #messages = 0;
  /** The last run's events. */
  events: BaseEvent[] = [];
  readonly tools = [
    ...wordsTools(this.ran),
    defineTool({
      name: "fail",
      description: "Fails",
      schema: z.object({}),
      handler: () => {
        throw new Error("out of order");
      },
    }),
  ];

  constructor(readonly threadId: string) {
    this.route = new AgUiRoute({ model: wordsModel(["pay", "ask", "fail"]), tools: this.tools, approvalSecret: "server only" });
    this.agent = agentOn(this.route, threadId);
  }

  #say(text: string): void {
    this.agent.addMessage({ id: `${this.threadId}-u${++this.#messages}`, role: "user", content: text });
  }

  /** The answer to each open interrupt: approvals decided `approved`, questions answered "Oslo"; or every one cancelled. */
  #resume(decide: "approve" | "deny" | "cancel"): ResumeEntry[] {
    return this.agent.pendingInterrupts.map((i: Interrupt): ResumeEntry => {
      if (decide === "cancel") return { interruptId: i.id, status: "cancelled" };
      if (i.id.startsWith("approval:"))
        return { interruptId: i.id, status: "resolved", payload: { approved: decide === "approve", reason: "no" }, metadata: i.metadata };
      return { interruptId: i.id, status: "resolved", payload: "Oslo" };
    });
  }

  /** Do one action if the client offers it now, run the agent and judge it. Returns what was done. */
  async act(action: ClientAction): Promise<string> {
    const open = this.agent.pendingInterrupts.length > 0;
    switch (action.kind) {
      case "send":
        // The client refuses a run that leaves an interrupt unaddressed: writing instead is "type".
        if (open) return "";
        this.#say(action.text);
        this.events = await judgedRun(this.agent);
        return `send ${action.text}`;
      case "approve":
      case "deny":
        if (!open) return "";
        this.events = await judgedRun(this.agent, { resume: this.#resume(action.kind) });
        return action.kind;
      case "type":
        if (!open) return "";
        this.#say("hello");
        this.events = await judgedRun(this.agent, { resume: this.#resume("cancel") });
        return "type";
      case "reload":
        this.agent = agentOn(this.route, this.threadId, structuredClone(this.agent.messages));
        this.events = [];
        return "reload";
    }
  }

  /** What the client's side says now: every input the route received parsed, no run ended RUN_ERROR, no call ran twice, a failed call went back failed. */
  problems(): string[] {
    const out: string[] = [];
    if (this.route.refused.length > 0) out.push(`the route refused an input: ${this.route.refused[0]?.slice(0, 400)}`);
    const end = this.events.at(-1);
    if (end !== undefined && end.type !== "RUN_FINISHED") out.push(`the run ended ${end.type}: ${JSON.stringify(end).slice(0, 300)}`);
    if (new Set(this.ran).size !== this.ran.length) out.push(`a call ran twice: ${this.ran.join(", ")}`);
    for (const input of this.route.inputs) {
      for (const m of input.messages) {
        const failed = m.role === "tool" && m.toolCallId.startsWith("fail-");
        if (failed && (m as { metadata?: { isError?: unknown } }).metadata?.isError !== true) out.push(`${m.toolCallId} went back without its error flag`);
      }
    }
    return out;
  }
}
