import type { Chat } from "@ai-sdk/react";
import { lastAssistantMessageIsCompleteWithApprovalResponses, lastAssistantMessageIsCompleteWithToolCalls, type UIMessage } from "ai";
import { z } from "zod";
import { defineTool, ok } from "../../src/index.js";
import type { SweptSession } from "./ui-sweep.js";
import { ChatRoute, chatOn, historyProblem } from "./use-chat.js";
import { wordsModel, wordsTools } from "./words-thread.js";

/** Every user action the useChat page of examples/ui offers. */
export type PageAction =
  | { readonly kind: "send"; readonly text: "pay" | "ask" | "work" | "both" | "hello"; readonly thenStop: boolean }
  | { readonly kind: "approve" | "deny" | "answer" | "reload" };

type ToolPart = { type: string; toolCallId: string; state: string; approval?: { id: string } };

function toolParts(m: UIMessage | undefined): ToolPart[] {
  return (m?.parts ?? []).filter((p) => p.type.startsWith("tool-")) as unknown as ToolPart[];
}

/**
 * A page session on toolrx's route: a model that does what the user's words say (`pay` needs
 * approval, `ask` asks a question, `work` runs until released or stopped, `both` pays and asks),
 * useChat's Chat acting as the page does, and the clients' own judges after every action.
 */
export class PageSession implements SweptSession<PageAction> {
  readonly ran: string[] = [];
  readonly #running = new Map<string, () => void>();
  readonly route: ChatRoute;
  chat: Chat<UIMessage>;
  readonly tools = [
    ...wordsTools(this.ran),
    defineTool({
      name: "work",
      description: "Long work",
      schema: z.object({}),
      handler: (_a, ctx) =>
        new Promise((resolve, reject) => {
          this.#running.set(ctx.toolCall.id, () => resolve(ok("worked")));
          ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason), { once: true });
        }),
    }),
  ];

  constructor(readonly chatId: string) {
    this.route = new ChatRoute({ model: wordsModel(["pay", "ask", "work"]), tools: this.tools, approvalSecret: "server only" });
    this.chat = chatOn(this.route, { id: chatId });
  }

  /** The call the page would answer now: the last message's part in `state` (a question: an open `ask`). */
  #pending(type: string, state: string): ToolPart | undefined {
    return toolParts(this.chat.messages.at(-1)).find((p) => p.type === type && p.state === state);
  }

  /** Do one action, as a user on the page would, if the page offers it now; wait until the chat is idle. Returns what was done. */
  async act(action: PageAction): Promise<string> {
    const { chat } = this;
    switch (action.kind) {
      case "send": {
        const before = this.route.posted.length;
        const sent = chat.sendMessage({ text: action.text });
        while (this.route.posted.length === before) await new Promise((r) => setTimeout(r, 2));
        await this.#settled(action.thenStop);
        await sent;
        return `send ${action.text}${action.thenStop ? " (stop)" : ""}`;
      }
      case "approve":
      case "deny": {
        const part = this.#pending("tool-pay", "approval-requested");
        if (part?.approval === undefined) return "";
        const before = this.route.posted.length;
        await chat.addToolApprovalResponse({ id: part.approval.id, approved: action.kind === "approve", reason: "no" });
        await this.#settled(false);
        const stuck = toolParts(chat.messages.at(-1)).some((p) => p.toolCallId === part.toolCallId && p.state === "approval-requested");
        if (stuck) throw new Error(`${action.kind} of ${part.toolCallId} left it approval-requested (${this.route.posted.length - before} requests)`);
        return `${action.kind} ${part.toolCallId}`;
      }
      case "answer": {
        const part = this.#pending("tool-ask", "input-available");
        if (part === undefined) return "";
        await chat.addToolOutput({ tool: "ask", toolCallId: part.toolCallId, output: "Oslo" });
        await this.#settled(false);
        return `answer ${part.toolCallId}`;
      }
      case "reload":
        this.chat = chatOn(this.route, { id: this.chatId, messages: structuredClone(chat.messages) });
        return "reload";
    }
  }

  /**
   * Wait until the chat is idle for a few turns of the event loop in a row (an automatic resend
   * starts a turn after the answer it follows), ending each `work` call that runs meanwhile the
   * way the page would: its Stop button (`thenStop`), or letting it finish.
   */
  async #settled(thenStop: boolean): Promise<void> {
    let quiet = 0;
    for (let i = 0; quiet < 5; i++) {
      if (i > 10_000) throw new Error(`the chat did not settle: status ${this.chat.status}, ${this.route.open} request(s) open`);
      await new Promise((r) => setTimeout(r, 2));
      for (const [id, release] of this.#running) {
        this.#running.delete(id);
        if (thenStop) this.route.stop(this.chatId, id);
        else release();
      }
      quiet = this.route.open === 0 && (this.chat.status === "ready" || this.chat.status === "error") ? quiet + 1 : 0;
    }
  }

  /** The state of each part of each message: what SWEEP_DEBUG prints after an action. */
  trace(): string {
    return JSON.stringify(this.chat.messages.map((m) => m.parts.map((p) => (p as { state?: string }).state ?? p.type)));
  }

  /**
   * What the clients' own code says of the page now: `ai`'s validator on the history (with the
   * tools' schemas), the route's validator on every request, the chat not in error, nothing the
   * page answered left unsent, and no approved call run twice nor a denied one run.
   */
  async problems(): Promise<string[]> {
    const out: string[] = [];
    // `ai`'s validator asks for at least one message: a page that sent nothing yet has none to judge.
    const invalid = this.chat.messages.length === 0 ? undefined : await historyProblem(this.chat.messages, this.tools);
    if (invalid !== undefined) out.push(`validateUIMessages: ${invalid.slice(0, 400)}`);
    if (this.route.refused.length > 0) out.push(`the route refused a request: ${this.route.refused[0]?.slice(0, 400)}`);
    if (this.chat.status === "error") out.push(`the chat is in error: ${this.chat.error?.message}`);
    const o = { messages: this.chat.messages };
    if (lastAssistantMessageIsCompleteWithApprovalResponses(o) || lastAssistantMessageIsCompleteWithToolCalls(o)) out.push("answered, but nothing was sent");
    if (new Set(this.ran).size !== this.ran.length) out.push(`a call ran twice: ${this.ran.join(", ")}`);
    return out;
  }
}
